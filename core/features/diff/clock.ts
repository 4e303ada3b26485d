/**
 * Clocks on pages: a time of day or a timestamp that shows when the page was fetched ("Updated
 * 10:42", "Generated 2026-11-25T00:40:12Z") changes on every load, while the times of a timetable,
 * opening hours or an event are content. A time counts as a clock only when it lies within a few
 * minutes of its version's fetch time, in some real time zone (whole hours and the few :30/:45
 * offsets in use); two versions' times are the same when they read alike or when both are clocks
 * in the same zone. So "09:12" becoming "09:47" is a change, whenever the checks ran, unless the
 * page moved exactly with the fetch time.
 */

/** A time read from a line: its text and the minutes it can mean. */
export interface TimeValue {
  raw: string;
  /** `instant`: a zoned timestamp; `local`: a timestamp without a zone; `day`: a time of day. */
  kind: 'instant' | 'local' | 'day';
  /** Minutes since the epoch (instant, local) or of the day (day; two readings for an hour 1-12 without am/pm). */
  minutes: number[];
}

/** How far a clock may be from the fetch time: rendering, caches and minute-rounding. */
export const CLOCK_WINDOW_MINUTES = 5;
const DAY = 1440;
/** UTC offsets in use, in minutes: whole hours and the zones on :30 and :45. */
const OFFSETS = [...Array.from({ length: 27 }, (_, i) => (i - 12) * 60), -570, -210, 210, 270, 330, 345, 390, 525, 570, 630, 765, 825];

// One pass over a line, linear: an ISO timestamp, or a time of day (h:mm[:ss] [am|pm]) not inside a longer number.
const TIME =
  /\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?|\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([ap])\.?m\b\.?)?(?![\d:])/gi;

function timestamp(m: RegExpExecArray): TimeValue | null {
  const [, y, mo, d, h, mi, s, zone] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (Number.isNaN(utc)) return null;
  if (!zone) return { raw: m[0], kind: 'local', minutes: [utc / 60_000] };
  const sign = zone.startsWith('-') ? -1 : 1;
  const offset = zone === 'Z' || zone === 'z' ? 0 : sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  return { raw: m[0], kind: 'instant', minutes: [utc / 60_000 - offset] };
}

function timeOfDay(m: RegExpExecArray): TimeValue | null {
  const hour = Number(m[8]);
  const minute = Number(m[9]) + Number(m[10] ?? 0) / 60;
  const half = m[11]?.toLowerCase();
  if (hour > 23 || minute >= 60 || (half && (hour === 0 || hour > 12))) return null;
  if (half) return { raw: m[0], kind: 'day', minutes: [((hour % 12) + (half === 'p' ? 12 : 0)) * 60 + minute] };
  const readings = [hour * 60 + minute];
  if (hour >= 1 && hour <= 12) readings.push(((hour + 12) % 24) * 60 + minute);
  return { raw: m[0], kind: 'day', minutes: readings };
}

/** The line with each time replaced by `mark`, and the times in order. */
export function readTimes(line: string, mark: string): { text: string; times: TimeValue[] } {
  const times: TimeValue[] = [];
  const text = line.replace(TIME, (...args) => {
    const m = args.slice(0, 12) as unknown as RegExpExecArray;
    const value = m[1] ? timestamp(m) : timeOfDay(m);
    if (!value) return m[0];
    times.push(value);
    return mark;
  });
  return { text, times };
}

const circular = (a: number) => Math.abs((((a % DAY) + DAY + DAY / 2) % DAY) - DAY / 2);

/** The time zones (UTC offsets) in which `time` shows the fetch time, within the window. */
export function clockZones(time: TimeValue, fetchedAt: number): number[] {
  const fetched = fetchedAt / 60_000;
  if (time.kind === 'instant') return Math.abs(time.minutes[0]! - fetched) <= CLOCK_WINDOW_MINUTES ? [0] : [];
  const distance =
    time.kind === 'local' ? (v: number, o: number) => Math.abs(v - fetched - o) : (v: number, o: number) => circular(v - fetched - o);
  return OFFSETS.filter((o) => time.minutes.some((v) => distance(v, o) <= CLOCK_WINDOW_MINUTES));
}

/** Whether two versions' times are the same: alike, or both the clock of their fetch in one zone. */
export function sameTime(a: TimeValue, aFetchedAt: number | undefined, b: TimeValue, bFetchedAt: number | undefined): boolean {
  if (a.raw === b.raw) return true;
  if (aFetchedAt === undefined || bFetchedAt === undefined || a.kind !== b.kind) return false;
  const zones = clockZones(a, aFetchedAt);
  return zones.length > 0 && clockZones(b, bFetchedAt).some((o) => zones.includes(o));
}
