import { CheckinRooms } from './checkin-rooms';
import { CheckinServices } from './checkin-services';
import { CheckinStations } from './checkin-stations';

/** Settings → Check-in: services, rooms and classes, stations. */
export function CheckinSettingsSection() {
  return (
    <>
      <CheckinServices />
      <CheckinRooms />
      <CheckinStations />
    </>
  );
}
