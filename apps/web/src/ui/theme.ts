import {
  createTheme,
  type CSSVariablesResolver,
  type BadgeFactory,
  type DrawerFactory,
  type ExtendComponent,
  type MenuFactory,
  type ModalFactory,
  type NotificationFactory,
  type StepperFactory,
  type TableFactory,
  type TableScrollContainerProps,
} from '@mantine/core';
import type { DateInputFactory, DatePickerInputFactory, DateTimePickerFactory, DayOfWeek } from '@mantine/dates';
import classes from './theme.module.css';

/** Every dialog's and sheet's close button has a name (screen readers announce 'Close, button'). */
const closeButtonProps = { 'aria-label': 'Close' };

/** Date pickers' days: no half-transparent days of other months, no red-6 weekends (both under 4.5:1 contrast). */
const pickerDays = { hideOutsideDates: true, weekendDays: [] as DayOfWeek[] };

// Component defaults are written as the objects `Drawer.extend(...)` would return (it is the identity):
// importing Drawer, Stepper and Table here put them into every screen's first load.

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8 keeps white button text and links above WCAG AA contrast (4.5:1).
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  // People who turned animations off in their system get dialogs, menus and sheets without them.
  respectReducedMotion: true,
  fontFamily: 'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: {
    fontFamily: 'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  },
  colors: {},
  components: {
    Modal: { defaultProps: { closeButtonProps } } satisfies ExtendComponent<ModalFactory>,
    Drawer: { defaultProps: { closeButtonProps } } satisfies ExtendComponent<DrawerFactory>,
    // Date pickers: named previous/next arrows (the level buttons keep their visible text as name); no half-transparent days of other
    // months and no red-6 weekends (both under 4.5:1 contrast).
    Calendar: {
      defaultProps: {
        ...pickerDays,
        ariaLabels: {
          previousMonth: 'Previous month',
          nextMonth: 'Next month',
          previousYear: 'Previous year',
          nextYear: 'Next year',
          previousDecade: 'Previous decade',
          nextDecade: 'Next decade',
        },
      },
    },
    // The date fields' own calendars do not take Calendar's defaults: the same two here. (A day of
    // another month showed half-transparent when the month shown was not today's: the schedule's
    // popover opens on tomorrow's month on a month's last evening, with today an outside day.)
    // The date-time popover's check button sets the time and closes it.
    DateTimePicker: {
      defaultProps: { ...pickerDays, submitButtonProps: { 'aria-label': 'Done' } },
    } satisfies ExtendComponent<DateTimePickerFactory>,
    DatePickerInput: { defaultProps: pickerDays } satisfies ExtendComponent<DatePickerInputFactory>,
    DateInput: { defaultProps: pickerDays } satisfies ExtendComponent<DateInputFactory>,
    // The clear (×) button of date fields and selects.
    InputClearButton: { defaultProps: { 'aria-label': 'Clear' } },
    // Phones: the step list wraps without separator lines between the wrapped steps.
    Stepper: {
      classNames: { steps: classes.stepperSteps, separator: classes.stepperSeparator },
    } satisfies ExtendComponent<StepperFactory>,
    // Menus: no focus placeholder inside the menu (a focusable element without a role, which makes the
    // dropdown fail axe's aria-required-children: a menu holds menu items only); the first item takes
    // focus instead. Coloured items (a red 'Delete', 'Logout') one step darker for AA contrast.
    Menu: {
      defaultProps: { withInitialFocusPlaceholder: false },
      classNames: { item: classes.menuItem },
    } satisfies ExtendComponent<MenuFactory>,
    // A notice's text under its title at AA contrast (Mantine's gray-6 is 3.3:1 on white).
    Notification: {
      classNames: { description: classes.notificationDescription },
    } satisfies ExtendComponent<NotificationFactory>,
    // Badges are never cut: as wide as their words, in a narrow table cell or a crowded row.
    Badge: { classNames: { root: classes.badge, label: classes.badgeLabel } } satisfies ExtendComponent<BadgeFactory>,
    // A table that scrolls sideways can be scrolled from the keyboard (axe: scrollable-region-focusable).
    TableScrollContainer: {
      defaultProps: {
        scrollAreaProps: { viewportProps: { tabIndex: 0 } },
      } satisfies Partial<TableScrollContainerProps>,
    },
    // A spinner is a status: its name ('Loading contacts') is allowed then (on a bare span, axe's
    // aria-prohibited-attr), and screen readers hear that something is loading.
    Loader: { defaultProps: { role: 'status' } },
    // Row actions (the last cell when it holds a button or link) stay in view when a table scrolls sideways.
    Table: { classNames: { table: classes.table } } satisfies ExtendComponent<TableFactory>,
  },
});

/** The warm accent, only for the impersonation banner and highlights. */
export const ACCENT = 'yellow';
export const ICON_SIZE = 18;

/** Dimmed text dark enough for AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Field errors (12 px) at AA contrast: Mantine's default red-6 is 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    // Coloured text (`c="red"`, validation messages written as Text) at AA contrast: Mantine uses shade 8.
    ...Object.fromEntries(
      ['red', 'green', 'teal', 'orange', 'blue', 'grape'].map((c) => [
        `--mantine-color-${c}-text`,
        `var(--mantine-color-${c}-9)`,
      ]),
    ),
    // Placeholders that are the visible text of a control (FileInput's 'Choose an image') at AA contrast.
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    // Text of 'light' variants (badges, active nav links, light buttons) one step darker for AA contrast.
    ...Object.fromEntries(
      ['indigo', 'red', 'green', 'blue', 'teal', 'orange', 'grape', 'cyan', 'violet', 'pink', 'lime'].flatMap((c) => [
        [`--mantine-color-${c}-light-color`, `var(--mantine-color-${c}-9)`],
        // and their hover background light enough to keep that contrast
        [`--mantine-color-${c}-light-hover`, `var(--mantine-color-${c}-1)`],
      ]),
    ),
    '--mantine-primary-color-light-hover': 'var(--mantine-color-indigo-1)',
    // Mantine's darkest green and orange are still under 4.5:1 on their light backgrounds.
    '--mantine-color-green-light-color': '#1b5e2a',
    '--mantine-color-orange-light-color': '#a33b05',
    // Teal-9 reads 4.32:1 on its light background (the 'Baptised' badge).
    '--mantine-color-teal-light-color': '#066649',
    // Yellow-9 reads 2.7:1 on its light background (an Alert's title): the matrix's 'Pending' brown.
    '--mantine-color-yellow-light-color': '#5c3d00',
    '--mantine-primary-color-light-color': 'var(--mantine-color-indigo-9)',
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-8)',
  },
  dark: {},
});
