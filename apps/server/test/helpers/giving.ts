export { chargeDueSchedules } from '@lampstand/api/server';
export { GIVE_PAGE_SCRIPT as GIVE_PAGE_SCRIPT_FOR_TESTS } from '@lampstand/api/render/give-page-html';
export { deliverStatements } from '@lampstand/api/server';
