import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { MapBin, MapPoint, MapPointsResult } from '../../../../shared/wire/map-points';
import type { DatastoreField } from '../../../../shared/wire/search';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { renderPlot } from '../chart/render-plot';
import { loadBasemap } from './basemap';
import { mapMarks } from './map-marks';

/**
 * Draws the map answer into `host` over the shipped country outlines (Plot and the outlines
 * load on first use); a click on a mark goes to `activate`. Redraws when the answer or the
 * language changes.
 */
export function useMapPlot(
  host: RefObject<HTMLDivElement | null>,
  data: MapPointsResult | undefined,
  fields: readonly DatastoreField[],
  colorText: (value: unknown) => string,
  activate: (item: MapPoint | MapBin) => void,
): void {
  const { t } = useTranslation();
  const locale = useLocale();
  const activateRef = useRef(activate);
  const drawRef = useRef<(host: HTMLDivElement, answer: MapPointsResult) => Promise<void>>(async () => undefined);
  useEffect(() => {
    activateRef.current = activate;
    drawRef.current = async (element, answer) => {
      const [Plot, basemap] = await Promise.all([import('@observablehq/plot'), loadBasemap()]);
      const width = Math.max(300, element.clientWidth - 4);
      const node = await renderPlot(
        mapMarks(Plot, answer, basemap, {
          width,
          colorText,
          count: (n) => formatCount(n, locale),
          label: t('map.label', { count: answer.located, n: formatCount(answer.located, locale) }),
          colorLabel: fields.find((f) => f.id === answer.color_field)?.id ?? '',
        }),
      );
      node.addEventListener('click', () => {
        const picked = (node as unknown as { value?: MapPoint | MapBin | null }).value;
        if (picked) activateRef.current(picked);
      });
      element.replaceChildren(node);
    };
  });
  useEffect(() => {
    const element = host.current;
    if (!element || !data) return;
    if (!data.extent) {
      element.replaceChildren();
      return;
    }
    void drawRef.current(element, data);
  }, [host, data, locale]);
}
