import { DateTimePicker, type DateTimePickerProps } from '@mantine/dates';
import { useId } from 'react';

/**
 * A date-time field whose popover (a dialog) is named by the field's label: the field's button and
 * the popover share one id, which Mantine's own target id, replaced by the field's, left unnamed.
 */
export function NamedDateTimePicker(props: DateTimePickerProps) {
  const id = useId();
  return <DateTimePicker id={id} {...props} popoverProps={{ ...props.popoverProps, id }} />;
}
