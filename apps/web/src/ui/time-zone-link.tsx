import { Anchor } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTimeZoneIsUtc } from '../lib/time-zone';

/** The link to the time zone setting, beside a time shown in UTC (nothing once the church has set its own). */
export function TimeZoneLink() {
  if (!useTimeZoneIsUtc()) return null;
  return (
    <>
      {' · '}
      <Anchor component={Link} to="/settings/church#time-zone" inherit>
        Set your time zone
      </Anchor>
    </>
  );
}
