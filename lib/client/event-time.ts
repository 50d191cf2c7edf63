// When an Event last and first happened, as milliseconds, from whichever of its time fields the writer set:
// events.k8s.io writers fill eventTime and series.lastObservedTime, core/v1 writers first/lastTimestamp.
interface EventTimes {
  eventTime?: string | null;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  series?: { lastObservedTime?: string | null } | null;
  metadata?: { creationTimestamp?: string | null };
}

const parse = (t: string | null | undefined): number | undefined => {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

/** series.lastObservedTime, else lastTimestamp, else eventTime, else firstTimestamp, else creation; NaN when none. */
export function eventLastSeen(event: EventTimes): number {
  return parse(event.series?.lastObservedTime) ?? parse(event.lastTimestamp) ?? parse(event.eventTime) ?? parse(event.firstTimestamp) ?? parse(event.metadata?.creationTimestamp) ?? NaN;
}

/** firstTimestamp, else eventTime, else creation; NaN when none. */
export function eventFirstSeen(event: EventTimes): number {
  return parse(event.firstTimestamp) ?? parse(event.eventTime) ?? parse(event.metadata?.creationTimestamp) ?? NaN;
}
