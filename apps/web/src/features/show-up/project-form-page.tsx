import '@mantine/dates/styles.css';
import { Skeleton } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { httpStatus } from '../../lib/errors';
import { AccessDenied } from '../../shell/guards';
import { PageHeader } from '../../ui/page-header';
import { ProjectNotFound } from './detail-page';
import { ProjectForm } from './project-form';

export function NewProjectPage() {
  return (
    <>
      <PageHeader title="List a Project" description="Tell people what you are raising money for." />
      <ProjectForm />
    </>
  );
}

export function EditProjectPage() {
  const { id } = useParams();
  const projectId = Number(id);
  const valid = Number.isInteger(projectId) && projectId > 0 && projectId < 2 ** 31;
  const project = trpc.showUp.get.useQuery({ id: projectId }, { enabled: valid, staleTime: 0 });
  if (!valid || (project.isError && [400, 404].includes(httpStatus(project.error) ?? 0))) return <ProjectNotFound />;
  if (project.isLoading || !project.data) return <Skeleton height={400} maw={720} />;
  if (!project.data.isOwner) return <AccessDenied text="You don't have permission to edit this project." />;
  return (
    <>
      <PageHeader title="Edit Project" description={project.data.title} />
      <ProjectForm project={project.data} />
    </>
  );
}
