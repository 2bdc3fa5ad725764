/**
 * Observable Plot under this page's Content-Security-Policy (no inline `<style>`): Plot's
 * own `<style>` element is removed while the chart is still detached, before the page ever
 * applies it (views.css carries the same rules for `.ds-plot`). Plot needs the real window
 * for its pointer events, so it builds in this document.
 */
import type { PlotOptions } from '@observablehq/plot';

export const PLOT_CLASS = 'ds-plot';

export async function renderPlot(options: PlotOptions): Promise<SVGSVGElement | HTMLElement> {
  const Plot = await import('@observablehq/plot');
  const node = Plot.plot({ ...options, className: PLOT_CLASS });
  for (const style of node.querySelectorAll('style')) style.remove();
  return node;
}

/** The chart as a standalone SVG file's text (white background, namespaces declared). */
export function svgText(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  copy.setAttribute('color', '#1b1f24');
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', '#ffffff');
  copy.insertBefore(background, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

/** The SVG drawn on a canvas at twice its size, as PNG. */
export async function pngBlob(svg: SVGSVGElement): Promise<Blob> {
  const width = Number(svg.getAttribute('width')) || svg.clientWidth;
  const height = Number(svg.getAttribute('height')) || svg.clientHeight;
  const image = new Image();
  // data: URLs are what the page's policy allows for images (no blob:)
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText(svg))}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.scale(2, 2);
  context.drawImage(image, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

/** Saves a file through a temporary link (the browser's or Electron's download). */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
