import { formatDayNumber } from '../src/common/dates/calendar-date';

/**
 * The frame the docs' daily plots share (docs:forecast-plot, docs:anomaly-plot, docs:commitments-plot): a 900 × 380 SVG
 * of `days` days from `firstDay` (a day number) and amounts up to `max`, with its scales, grid, month labels, legend and
 * caption; `tickLabel` writes the value axis's labels (amounts by default).
 */
export class DailyChart {
  readonly width = 900;
  readonly height = 380;
  readonly left = 70;
  readonly top = 30;
  readonly bottom = 70;

  constructor(
    private readonly firstDay: number,
    private readonly days: number,
    private readonly max: number,
    private readonly tickLabel: (tick: number) => string = (tick) => tick.toLocaleString('en-US'),
  ) {}

  /** The x of the i-th day. */
  x(i: number): number {
    return this.left + ((this.width - this.left - 20) * i) / (this.days - 1);
  }

  y(value: number): number {
    return this.top + (this.height - this.top - this.bottom) * (1 - value / this.max);
  }

  /** An SVG path through the points (x, y already scaled). */
  static line(points: Array<[number, number]>): string {
    return points.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
  }

  /** The whole SVG: the frame, then `marks` (paths, bands), the legend's spans and the caption's lines. */
  svg(marks: string[], legend: string, caption: string[]): string {
    const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(this.max * share));
    const months = Array.from({ length: this.days }, (_, i) => formatDayNumber(this.firstDay + i)).flatMap((date, i) =>
      date.endsWith('-01')
        ? [
            `<text x="${this.x(i).toFixed(1)}" y="${this.height - this.bottom + 18}" font-size="11" text-anchor="middle">${date.slice(0, 7)}</text>`,
          ]
        : [],
    );
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}" font-family="sans-serif">`,
      `<rect width="${this.width}" height="${this.height}" fill="white"/>`,
      ...ticks.map(
        (tick) =>
          `<line x1="${this.left}" x2="${this.width - 20}" y1="${this.y(tick).toFixed(1)}" y2="${this.y(tick).toFixed(1)}" stroke="#eee"/><text x="${this.left - 6}" y="${(this.y(tick) + 4).toFixed(1)}" font-size="11" text-anchor="end">${this.tickLabel(tick)}</text>`,
      ),
      ...months,
      ...marks,
      ...caption.map((text, i) => `<text x="${this.left}" y="${this.height - 28 + 16 * i}" font-size="12">${text}</text>`),
      `<text x="${this.left}" y="18" font-size="13">${legend}</text>`,
      '</svg>',
      '',
    ].join('\n');
  }
}
