import { IMPORT_FIELDS, type ImportField } from '../../schemas/contact-imports.js';

/** The field each column of an import's file is suggested for, by its heading. */

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const SYNONYMS: Record<string, ImportField> = {
  first: 'firstName',
  firstname: 'firstName',
  givenname: 'firstName',
  fname: 'firstName',
  forename: 'firstName',
  last: 'lastName',
  lastname: 'lastName',
  surname: 'lastName',
  familyname: 'lastName',
  lname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  mail: 'email',
  phone: 'phone',
  phonenumber: 'phone',
  mobile: 'phone',
  mobilephone: 'phone',
  cell: 'phone',
  cellphone: 'phone',
  telephone: 'phone',
  mobilenumber: 'phone',
  countrycode: 'countryCode',
  dob: 'dateOfBirth',
  dateofbirth: 'dateOfBirth',
  birthday: 'dateOfBirth',
  birthdate: 'dateOfBirth',
  tags: 'tags',
  notes: 'notes',
  note: 'notes',
  member: 'isChurchMember',
  churchmember: 'isChurchMember',
  ischurchmember: 'isChurchMember',
  baptised: 'isBaptised',
  baptized: 'isBaptised',
  seeker: 'isSeeker',
  servicestaff: 'isServiceStaff',
  staff: 'isServiceStaff',
  staffrole: 'staffRole',
  role: 'staffRole',
  wwcc: 'wwccNumber',
  wwccnumber: 'wwccNumber',
  website: 'website',
  url: 'website',
  address: 'address',
  street: 'address',
  streetaddress: 'address',
  city: 'city',
  suburb: 'city',
  town: 'city',
  state: 'state',
  region: 'state',
  country: 'country',
  postcode: 'postalCode',
  postalcode: 'postalCode',
  zip: 'postalCode',
  zipcode: 'postalCode',
  emailconsent: 'emailConsent',
  smsconsent: 'smsConsent',
  household: 'household',
  householdid: 'household',
  householdname: 'household',
  family: 'household',
  familyid: 'household',
};
for (const f of IMPORT_FIELDS) SYNONYMS[norm(f.label)] = f.value;

export function suggestMapping(headers: string[]): Record<string, ImportField> {
  const used = new Set<ImportField>();
  const mapping: Record<string, ImportField> = {};
  for (const h of headers) {
    const field = SYNONYMS[norm(h)];
    if (field && !used.has(field)) {
      mapping[h] = field;
      used.add(field);
    }
  }
  return mapping;
}
