import { useEffect, useRef, useState, type RefObject } from 'react';
import type { GroupByResult } from '../../../../shared/wire/group-by';
import { plotOptions, type ChartLabels } from './chart-spec';
import { renderPlot } from './render-plot';

/**
 * Draws a group-by answer into `host` with Observable Plot (loaded on first use) and hands
 * back the SVG for the PNG/SVG exports. It redraws when the answer or the language changes;
 * the labels are read at that moment.
 */
export function useChartPlot(host: RefObject<HTMLDivElement | null>, data: GroupByResult | null | undefined, labels: ChartLabels) {
  const [svg, setSvg] = useState<SVGSVGElement | null>(null);
  const drawRef = useRef<(host: HTMLDivElement) => Promise<SVGSVGElement | null>>(async () => null);
  useEffect(() => {
    drawRef.current = async (element) => {
      if (!data || !data.groups.length) return null;
      const Plot = await import('@observablehq/plot');
      const node = await renderPlot(plotOptions(Plot, data, labels, Math.max(320, element.clientWidth - 8)));
      const found = node instanceof SVGSVGElement ? node : node.querySelector('svg');
      found?.setAttribute('role', 'img');
      element.replaceChildren(node);
      return found;
    };
  });
  useEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    let cancelled = false;
    element.replaceChildren();
    void drawRef.current(element).then((found) => {
      if (!cancelled) setSvg(found);
    });
    return () => {
      cancelled = true;
    };
  }, [host, data, labels.locale]);
  return svg;
}
