import '@mantine/dates/styles.css';
import { useId } from 'react';
import { DateTimePicker } from '@mantine/dates';
import { fromZonedWallTime, nextWholeHour, timeZoneLabel, toZonedWallTime } from '../lib/time-zone';
import { TimeZoneLink } from './time-zone-link';

/**
 * A date and time in the church's time zone, 12-hour ('h:mm a'), past days disabled. `value` and
 * `onChange` carry the UTC instant as an ISO string (what the API stores); the zone is shown under
 * the label. Picking a day starts at the next whole hour.
 */
export function ZonedDateTimePicker({
  timeZone,
  value,
  onChange,
  label = 'Send at',
  error,
  withAsterisk,
}: {
  timeZone: string;
  value?: string | null;
  onChange: (iso: string | null) => void;
  label?: string;
  error?: React.ReactNode;
  withAsterisk?: boolean;
}) {
  // The field's button and the popover share one id: the popover (a dialog) is named by the field's
  // label ('Send at'), which Mantine's own target id, replaced by the field's, left unnamed.
  const id = useId();
  const now = new Date();
  const defaultTime = toZonedWallTime(nextWholeHour(timeZone, now), timeZone).slice(11, 16);
  return (
    <DateTimePicker
      id={id}
      popoverProps={{ id }}
      label={label}
      description={
        <>
          Time zone: {timeZoneLabel(timeZone)}
          <TimeZoneLink />
        </>
      }
      withAsterisk={withAsterisk}
      placeholder="Pick a date and time"
      minDate={toZonedWallTime(now, timeZone).slice(0, 10)}
      valueFormat="MMM D, YYYY h:mm A"
      timePickerProps={{
        format: '12h',
        hoursInputLabel: 'Hour',
        minutesInputLabel: 'Minute',
        amPmInputLabel: 'AM or PM',
      }}
      defaultTimeValue={defaultTime}
      value={value ? toZonedWallTime(new Date(value), timeZone) : null}
      onChange={(wall) => onChange(wall ? fromZonedWallTime(wall, timeZone).toISOString() : null)}
      error={error}
    />
  );
}
