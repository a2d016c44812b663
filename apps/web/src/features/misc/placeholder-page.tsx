import { PageHeader } from '../../ui/page-header';

/** A route a later release fills in: its title and one line, no invented data. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return <PageHeader title={title} description={description} />;
}
