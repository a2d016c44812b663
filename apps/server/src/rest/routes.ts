import type { FastifyRequest } from 'fastify';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/admin/impersonate/{id}`. */
  path: string;
  /** Dotted tRPC procedure path: `admin.impersonate`. */
  procedure: string;
  summary: string;
  tag: string;
  /** Who may call it; documented in OpenAPI and enforced by the procedure's builder. */
  access: 'public' | 'signed-in' | 'admin';
  /** The procedure's input from the request; default: path params merged over the JSON body (or the query for GET). */
  input?: (req: FastifyRequest) => unknown;
  /** Status on success (default 200). */
  status?: number;
  /** 'csv': the procedure returns { fileName, csv }, sent as a CSV download. */
  format?: 'json' | 'csv';
}

const q = (req: FastifyRequest) => (req.query ?? {}) as Record<string, string | undefined>;
const p = (req: FastifyRequest) => (req.params ?? {}) as Record<string, string>;

/**
 * The ONE table of the REST API for integrators. Each row becomes a Fastify route that calls the
 * tRPC procedure, and a path in the OpenAPI document at GET /api/openapi.json. Later features
 * add their rows here.
 */
export const restRoutes: RestRoute[] = [
  // Accounts
  { method: 'POST', path: '/api/register', procedure: 'auth.register', summary: 'Create a church account and sign in', tag: 'Accounts', access: 'public', status: 201 },
  { method: 'POST', path: '/api/login', procedure: 'auth.login', summary: 'Sign in with username and password', tag: 'Accounts', access: 'public' },
  { method: 'POST', path: '/api/logout', procedure: 'auth.logout', summary: 'End the session on the server', tag: 'Accounts', access: 'public' },
  { method: 'GET', path: '/api/user', procedure: 'auth.me', summary: 'The signed-in user (401 when not signed in)', tag: 'Accounts', access: 'signed-in' },

  // Platform administration
  { method: 'GET', path: '/api/admin/users', procedure: 'admin.users', summary: 'All church accounts', tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/impersonate/{id}', procedure: 'admin.impersonate', summary: 'Act as a church account', tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/stop-impersonating', procedure: 'admin.stopImpersonating', summary: 'Return to the administrator account', tag: 'Admin', access: 'signed-in' },

  // Marketing templates and packages (platform administration)
  { method: 'GET', path: '/api/admin/marketing-templates', procedure: 'adminTemplates.templates', summary: 'All marketing templates', tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/marketing-templates', procedure: 'adminTemplates.createTemplate', summary: 'Create a template (content kept as given for its type)', tag: 'Admin', access: 'admin', status: 201 },
  { method: 'PUT', path: '/api/admin/marketing-templates/{id}', procedure: 'adminTemplates.updateTemplate', summary: 'Update a template', tag: 'Admin', access: 'admin' },
  { method: 'DELETE', path: '/api/admin/marketing-templates/{id}', procedure: 'adminTemplates.deleteTemplate', summary: 'Delete a template', tag: 'Admin', access: 'admin' },
  { method: 'GET', path: '/api/admin/marketing-packages', procedure: 'adminTemplates.packages', summary: 'All marketing packages', tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/marketing-packages', procedure: 'adminTemplates.createPackage', summary: 'Create a package (links only to templates of the matching type)', tag: 'Admin', access: 'admin', status: 201 },
  { method: 'PUT', path: '/api/admin/marketing-packages/{id}', procedure: 'adminTemplates.updatePackage', summary: 'Update a package', tag: 'Admin', access: 'admin' },
  { method: 'DELETE', path: '/api/admin/marketing-packages/{id}', procedure: 'adminTemplates.deletePackage', summary: 'Delete a package', tag: 'Admin', access: 'admin' },
  { method: 'GET', path: '/api/admin/assignments', procedure: 'adminTemplates.assignments', summary: "A church's assigned templates and packages (?userId=)", tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/assignments', procedure: 'adminTemplates.assign', summary: 'Assign a template or a package (userId with templateId or packageId)', tag: 'Admin', access: 'admin', status: 201 },
  { method: 'DELETE', path: '/api/admin/assignments/{id}', procedure: 'adminTemplates.unassign', summary: 'Unassign', tag: 'Admin', access: 'admin' },

  // Templates for churches
  { method: 'GET', path: '/api/templates', procedure: 'templates.list', summary: 'Active templates assigned to this church (directly or by package)', tag: 'Templates', access: 'signed-in' },
  { method: 'GET', path: '/api/packages', procedure: 'templates.packages', summary: 'Active packages assigned to this church, with their templates', tag: 'Templates', access: 'signed-in' },
  { method: 'POST', path: '/api/templates/{id}/use', procedure: 'templates.use', summary: 'Start a draft from a template in the matching tool', tag: 'Templates', access: 'signed-in' },

  // Dashboard
  { method: 'GET', path: '/api/dashboard/stats', procedure: 'dashboard.stats', summary: 'Contacts, email open rate, SMS delivery rate, page visits, recent and upcoming campaigns', tag: 'Dashboard', access: 'signed-in' },

  // Contacts
  { method: 'GET', path: '/api/contacts', procedure: 'contacts.list', summary: 'Every contact of the church, by name', tag: 'Contacts', access: 'signed-in' },
  { method: 'GET', path: '/api/contacts/search', procedure: 'contacts.find', summary: 'A page of contacts: search (name, email, phone), tab (all, members, staff), listId, page, pageSize', tag: 'Contacts', access: 'signed-in' },
  { method: 'GET', path: '/api/contacts/export', procedure: 'contactImports.export', summary: 'All contacts, or one list (listId), as CSV', tag: 'Contacts', access: 'signed-in', format: 'csv' },
  { method: 'POST', path: '/api/contacts', procedure: 'contacts.create', summary: 'Create a contact', tag: 'Contacts', access: 'signed-in', status: 201 },
  { method: 'GET', path: '/api/contacts/{id}', procedure: 'contacts.get', summary: 'One contact', tag: 'Contacts', access: 'signed-in' },
  { method: 'PATCH', path: '/api/contacts/{id}', procedure: 'contacts.update', summary: 'Update a contact', tag: 'Contacts', access: 'signed-in' },
  { method: 'DELETE', path: '/api/contacts/{id}', procedure: 'contacts.delete', summary: 'Delete a contact with its list memberships, family links and children', tag: 'Contacts', access: 'signed-in' },
  { method: 'PUT', path: '/api/contacts/{id}/consent', procedure: 'contacts.updateConsent', summary: "Set a contact's email or SMS consent", tag: 'Contacts', access: 'signed-in' },
  { method: 'GET', path: '/api/contacts/{id}/consent', procedure: 'contacts.consentHistory', summary: "A contact's consent changes, newest first", tag: 'Contacts', access: 'signed-in' },
  { method: 'GET', path: '/api/contacts/{id}/lists', procedure: 'contactLists.ofContact', summary: 'Lists a contact is in', tag: 'Contact lists', access: 'signed-in' },

  // Contact imports
  { method: 'POST', path: '/api/contacts/import', procedure: 'contactImports.upload', summary: 'Upload a CSV (fileName, csv): columns, preview and suggested mapping', tag: 'Contacts', access: 'signed-in', status: 201 },
  { method: 'POST', path: '/api/contacts/import/{id}/start', procedure: 'contactImports.start', summary: 'Confirm the column mapping (and optional listId) and import in the background', tag: 'Contacts', access: 'signed-in' },
  { method: 'GET', path: '/api/contacts/import/{id}', procedure: 'contactImports.get', summary: 'Progress and report of an import', tag: 'Contacts', access: 'signed-in' },

  // Family
  { method: 'GET', path: '/api/contacts/{id}/family', procedure: 'family.list', summary: "A contact's family links (link, contact, relationship, isInverse)", tag: 'Family', access: 'signed-in' },
  { method: 'POST', path: '/api/contacts/{id}/family', procedure: 'family.add', summary: 'Link a family member (relatedContactId, relationship)', tag: 'Family', access: 'signed-in', status: 201 },
  { method: 'DELETE', path: '/api/contacts/family/{linkId}', procedure: 'family.remove', summary: 'Remove a family link', tag: 'Family', access: 'signed-in' },

  // Children
  { method: 'GET', path: '/api/contacts/{id}/children', procedure: 'children.list', summary: "A contact's children", tag: 'Children', access: 'signed-in' },
  { method: 'POST', path: '/api/contacts/{id}/children', procedure: 'children.add', summary: 'Add a child', tag: 'Children', access: 'signed-in', status: 201 },
  { method: 'PATCH', path: '/api/contacts/children/{childId}', procedure: 'children.update', summary: 'Update a child', tag: 'Children', access: 'signed-in' },
  { method: 'DELETE', path: '/api/contacts/children/{childId}', procedure: 'children.remove', summary: 'Remove a child', tag: 'Children', access: 'signed-in' },
  { method: 'POST', path: '/api/contacts/children/{childId}/lists/{listId}', procedure: 'children.addToList', summary: 'Add a child to a list of type sms or both', tag: 'Children', access: 'signed-in' },

  // Child groups
  { method: 'GET', path: '/api/child-groups', procedure: 'childGroups.list', summary: 'Child groups', tag: 'Children', access: 'signed-in' },
  { method: 'POST', path: '/api/child-groups', procedure: 'childGroups.create', summary: 'Create a child group', tag: 'Children', access: 'signed-in', status: 201 },
  { method: 'PUT', path: '/api/child-groups/{id}', procedure: 'childGroups.update', summary: 'Rename or change a child group', tag: 'Children', access: 'signed-in' },
  { method: 'DELETE', path: '/api/child-groups/{id}', procedure: 'childGroups.delete', summary: 'Delete a child group (its children stay, without a group)', tag: 'Children', access: 'signed-in' },

  // Email campaigns
  {
    method: 'GET',
    path: '/api/email-campaigns',
    procedure: 'emailCampaigns.list',
    summary: 'Email campaigns, newest first; ?status=draft|scheduled|sent filters',
    tag: 'Email campaigns',
    access: 'signed-in',
    input: (req) => ({ status: q(req).status ?? 'all' }),
  },
  { method: 'POST', path: '/api/email-campaigns', procedure: 'emailCampaigns.create', summary: 'Create an email campaign (draft, or scheduled with scheduledFor)', tag: 'Email campaigns', access: 'signed-in', status: 201 },
  { method: 'POST', path: '/api/email-campaigns/preview', procedure: 'emailCampaigns.preview', summary: 'The message as a recipient sees it (subject, content, optional listId for the sample contact)', tag: 'Email campaigns', access: 'signed-in' },
  { method: 'POST', path: '/api/email-campaigns/test', procedure: 'emailCampaigns.sendTest', summary: 'Send a test email of the given subject and content to testEmail', tag: 'Email campaigns', access: 'signed-in' },
  { method: 'GET', path: '/api/email-campaigns/{id}', procedure: 'emailCampaigns.get', summary: 'One email campaign, with sending progress', tag: 'Email campaigns', access: 'signed-in' },
  { method: 'PUT', path: '/api/email-campaigns/{id}', procedure: 'emailCampaigns.update', summary: 'Update a draft or scheduled campaign (409 once sending or sent)', tag: 'Email campaigns', access: 'signed-in' },
  { method: 'DELETE', path: '/api/email-campaigns/{id}', procedure: 'emailCampaigns.delete', summary: 'Delete a campaign', tag: 'Email campaigns', access: 'signed-in' },
  { method: 'POST', path: '/api/email-campaigns/{id}/send', procedure: 'emailCampaigns.send', summary: 'Send now: snapshot the recipients and deliver in the background (409 if already sent)', tag: 'Email campaigns', access: 'signed-in' },
  { method: 'GET', path: '/api/email/campaigns/{id}/stats', procedure: 'emailCampaigns.stats', summary: 'Sent, opened, clicked, bounced and unsubscribed counts', tag: 'Email campaigns', access: 'signed-in' },
  {
    method: 'GET',
    path: '/api/outbox',
    procedure: 'outbox.list',
    summary: 'Messages kept in the local outbox (no SMTP or SMS provider configured); ?channel=email|sms&campaignId=',
    tag: 'Email campaigns',
    access: 'signed-in',
  },
  { method: 'GET', path: '/api/settings', procedure: 'settings.get', summary: "The church's settings (postal address for campaign footers)", tag: 'Settings', access: 'signed-in' },
  { method: 'PUT', path: '/api/settings', procedure: 'settings.update', summary: "Update the church's settings", tag: 'Settings', access: 'signed-in' },

  // SMS campaigns
  { method: 'GET', path: '/api/sms-campaigns', procedure: 'smsCampaigns.list', summary: 'SMS campaigns, newest first', tag: 'SMS campaigns', access: 'signed-in' },
  { method: 'POST', path: '/api/sms-campaigns', procedure: 'smsCampaigns.create', summary: 'Create an SMS campaign (draft, scheduled with scheduledFor, or ready)', tag: 'SMS campaigns', access: 'signed-in', status: 201 },
  { method: 'GET', path: '/api/sms-campaigns/{id}', procedure: 'smsCampaigns.get', summary: 'One SMS campaign, with delivery progress', tag: 'SMS campaigns', access: 'signed-in' },
  { method: 'PUT', path: '/api/sms-campaigns/{id}', procedure: 'smsCampaigns.update', summary: 'Update a campaign that has not been sent (409 after)', tag: 'SMS campaigns', access: 'signed-in' },
  { method: 'DELETE', path: '/api/sms-campaigns/{id}', procedure: 'smsCampaigns.delete', summary: 'Delete an SMS campaign', tag: 'SMS campaigns', access: 'signed-in' },
  { method: 'POST', path: '/api/sms-campaigns/{id}/send', procedure: 'smsCampaigns.send', summary: 'Send now: snapshot the recipients and deliver in the background', tag: 'SMS campaigns', access: 'signed-in' },

  // Contact lists
  {
    method: 'GET',
    path: '/api/contact-lists',
    procedure: 'contactLists.list',
    summary: 'Contact lists; include_counts=true adds contactCount',
    tag: 'Contact lists',
    access: 'signed-in',
    input: (req) => ({ includeCounts: q(req).include_counts === 'true' }),
  },
  { method: 'POST', path: '/api/contact-lists', procedure: 'contactLists.create', summary: 'Create a list', tag: 'Contact lists', access: 'signed-in', status: 201 },
  { method: 'PUT', path: '/api/contact-lists/{id}', procedure: 'contactLists.update', summary: 'Update a list', tag: 'Contact lists', access: 'signed-in' },
  { method: 'DELETE', path: '/api/contact-lists/{id}', procedure: 'contactLists.delete', summary: 'Delete a list (its contacts stay)', tag: 'Contact lists', access: 'signed-in' },
  { method: 'GET', path: '/api/contact-lists/{id}/contacts', procedure: 'contactLists.contacts', summary: 'Contacts in a list', tag: 'Contact lists', access: 'signed-in' },
  {
    method: 'POST',
    path: '/api/contact-lists/{listId}/contacts/{contactId}',
    procedure: 'contactLists.addContact',
    summary: 'Add a contact to a list',
    tag: 'Contact lists',
    access: 'signed-in',
    input: (req) => p(req),
  },
  {
    method: 'DELETE',
    path: '/api/contact-lists/{listId}/contacts/{contactId}',
    procedure: 'contactLists.removeContact',
    summary: 'Remove a contact from a list',
    tag: 'Contact lists',
    access: 'signed-in',
    input: (req) => p(req),
  },
];
