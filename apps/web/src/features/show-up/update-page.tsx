import { Button, Group, Paper, Skeleton, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { createUpdateSchema } from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { httpStatus } from '../../lib/errors';
import { AccessDenied } from '../../shell/guards';
import { notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { ProjectNotFound } from './detail-page';
import { ImageThumbnails, ImageUpload, type UploadedImage } from '../../ui/image-upload';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';

type Values = { projectId: number; title: string; content: string; images: UploadedImage[] };

export function NewUpdatePage() {
  const { id } = useParams();
  const projectId = Number(id);
  const valid = Number.isInteger(projectId) && projectId > 0 && projectId < 2 ** 31;
  const project = trpc.showUp.get.useQuery({ id: projectId }, { enabled: valid, staleTime: 0 });
  const navigate = useNavigate();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { projectId, title: '', content: '', images: [] },
    validate: schemaResolver(createUpdateSchema, { sync: true }),
  });
  const guard = useUnsavedChangesGuard(form.isDirty(), 'This update');
  const create = useSave(trpc.showUp.createUpdate, {
    success: ['Update created', 'Your supporters can read it on the project page.'],
    errorTitle: 'Error creating update',
    invalidate: (utils) => [
      utils.showUp.updates.invalidate({ id: projectId }),
      utils.showUp.get.invalidate({ id: projectId }),
    ],
    onSuccess: () => {
      guard.leaveWithoutAsking();
      void navigate(`/show-up/${projectId}`);
    },
  });

  if (!valid || (project.isError && [400, 404].includes(httpStatus(project.error) ?? 0))) return <ProjectNotFound />;
  if (project.isLoading || !project.data) return <Skeleton height={300} maw={720} />;
  if (!project.data.isOwner) return <AccessDenied text="You don't have permission to post updates to this project." />;

  return (
    <>
      <PageHeader title="Post an Update" description={project.data.title} />
      <form onSubmit={form.onSubmit((v) => create.mutate(createUpdateSchema.parse(v)))} noValidate>
        <Paper withBorder p="lg" maw={720}>
          <Stack>
            <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
            <Textarea label="Content" withAsterisk autosize minRows={6} {...form.getInputProps('content')} />
            <ImageThumbnails
              images={form.values.images}
              what="Update image"
              onRemove={(i) => form.removeListItem('images', i)}
            />
            <ImageUpload
              label="Add an image"
              value={null}
              onChange={(img) => {
                if (!img) return;
                form.insertListItem('images', img);
                notifySuccess('Image added', 'It is posted with the update.');
              }}
            />
            <Group justify="flex-end">
              <Button component={Link} to={`/show-up/${projectId}`} variant="default">
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Post Update
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </>
  );
}
