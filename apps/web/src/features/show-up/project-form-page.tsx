import '@mantine/dates/styles.css';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCurrentLocation } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  createProjectSchema,
  PROJECT_CATEGORIES,
  type Project,
  type ProjectFormValues,
} from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { httpStatus } from '../../lib/errors';
import { AccessDenied } from '../../shell/guards';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PageHeader } from '../../ui/page-header';
import { ProjectNotFound } from './detail-page';
import { ImageThumbnails, ImageUpload, type UploadedImage } from '../../ui/image-upload';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';

type Values = Omit<ProjectFormValues, 'tags' | 'coverImage' | 'images' | 'latitude' | 'longitude' | 'targetAmount'> & {
  tags: string;
  latitude: number | '';
  longitude: number | '';
  targetAmount: number | '';
  coverImage: UploadedImage | null;
  images: UploadedImage[];
};

const image = (i: { id: number | null; url: string; thumbnailUrl: string | null }): UploadedImage => ({
  ...(i.id != null ? { id: i.id } : {}),
  url: i.url,
  ...(i.thumbnailUrl ? { thumbnailUrl: i.thumbnailUrl } : {}),
});

function initialValues(project?: Project): Values {
  return {
    title: project?.title ?? '',
    shortDescription: project?.shortDescription ?? '',
    description: project?.description ?? '',
    location: project?.location ?? '',
    latitude: project?.latitude ?? '',
    longitude: project?.longitude ?? '',
    targetAmount: project?.targetAmount ?? '',
    category: project?.category ?? 'community',
    tags: project?.tags.join(', ') ?? '',
    organizationName: project?.organizationName ?? '',
    contactEmail: project?.contactEmail ?? '',
    contactPhone: project?.contactPhone ?? '',
    website: project?.website ?? '',
    startDate: project?.startDate ?? dayjs().format('YYYY-MM-DD'),
    endDate: project?.endDate ?? '',
    coverImage: project?.coverImage
      ? image({ id: project.coverUploadId, url: project.coverImage, thumbnailUrl: project.coverThumbnailUrl })
      : null,
    images: project?.images.map(image) ?? [],
  };
}

function ProjectForm({ project }: { project?: Project }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initialValues(project),
    validate: schemaResolver(createProjectSchema, { sync: true }),
  });
  const guard = useUnsavedChangesGuard(form.isDirty(), 'This project');
  const refresh = async (id?: number) => {
    await utils.showUp.list.invalidate();
    if (id) await utils.showUp.get.invalidate({ id });
  };
  const create = useSave(trpc.showUp.create, {
    success: ['Project created', 'Your project is now listed on Show Up.'],
    errorTitle: 'Error creating project',
    invalidate: () => refresh(),
    onSuccess: () => {
      guard.leaveWithoutAsking();
      void navigate('/show-up');
    },
  });
  const update = useSave(trpc.showUp.update, {
    success: ['Project updated', 'Your changes are saved.'],
    errorTitle: 'Error updating project',
    invalidate: (_utils, p) => refresh(p.id),
    onSuccess: (p) => {
      guard.leaveWithoutAsking();
      void navigate(`/show-up/${p.id}`);
    },
  });
  const submit = form.onSubmit((v) => {
    const payload = createProjectSchema.parse(v);
    if (project) update.mutate({ id: project.id, ...payload });
    else create.mutate(payload);
  });

  const locate = () => {
    if (!('geolocation' in navigator)) {
      notifyError(
        'Geolocation not supported',
        'Your browser cannot share its location. Please enter coordinates manually.',
      );
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        form.setFieldValue('latitude', Number(pos.coords.latitude.toFixed(6)));
        form.setFieldValue('longitude', Number(pos.coords.longitude.toFixed(6)));
        notifySuccess('Location detected', 'Latitude and longitude are filled in.');
      },
      (err) => notifyError('Location detection failed', err.message),
      { timeout: 15_000 },
    );
  };
  const addImage = (img: UploadedImage | null) => {
    if (!img) return;
    form.insertListItem('images', img);
    notifySuccess('Image added', 'It shows in the Project Images grid.');
  };
  const saving = create.isPending || update.isPending;

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={720}>
        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="sm">
            Project
          </Title>
          <Stack>
            <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
            <Textarea
              label="Short description"
              description={`Shown on project cards (${form.values.shortDescription.length}/200)`}
              withAsterisk
              autosize
              minRows={2}
              {...form.getInputProps('shortDescription')}
            />
            <Textarea
              label="Description"
              description="The whole story: what, why, and how the money is used (at least 50 characters)"
              withAsterisk
              autosize
              minRows={5}
              {...form.getInputProps('description')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Category"
                withAsterisk
                data={PROJECT_CATEGORIES.map((c) => ({ value: c.value, label: c.label }))}
                allowDeselect={false}
                {...form.getInputProps('category')}
              />
              <NumberInput
                label="Target amount (USD)"
                withAsterisk
                prefix="$"
                decimalScale={2}
                step={0.01}
                min={0}
                thousandSeparator=","
                {...form.getInputProps('targetAmount')}
              />
            </SimpleGrid>
            <TextInput
              label="Tags"
              description="Separate tags with commas, e.g. roof, youth, winter"
              {...form.getInputProps('tags')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <DateInput
                label="Start date"
                withAsterisk
                valueFormat="MMM D, YYYY"
                {...form.getInputProps('startDate')}
              />
              <DateInput
                label="End date"
                clearable
                valueFormat="MMM D, YYYY"
                {...form.getInputProps('endDate')}
                onChange={(v) => form.setFieldValue('endDate', v ?? '')}
              />
            </SimpleGrid>
          </Stack>
        </Paper>

        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="sm">
            Location
          </Title>
          <Stack>
            <TextInput label="Location" withAsterisk placeholder="City, State" {...form.getInputProps('location')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput label="Latitude" decimalScale={6} min={-90} max={90} {...form.getInputProps('latitude')} />
              <NumberInput
                label="Longitude"
                decimalScale={6}
                min={-180}
                max={180}
                {...form.getInputProps('longitude')}
              />
            </SimpleGrid>
            <Group>
              <Button variant="light" leftSection={<IconCurrentLocation size={18} />} onClick={locate}>
                Use my location
              </Button>
            </Group>
          </Stack>
        </Paper>

        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="sm">
            Organizer
          </Title>
          <Stack>
            <TextInput label="Organization name" withAsterisk {...form.getInputProps('organizationName')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Contact email" type="email" withAsterisk {...form.getInputProps('contactEmail')} />
              <TextInput label="Contact phone" type="tel" {...form.getInputProps('contactPhone')} />
            </SimpleGrid>
            <TextInput label="Website" placeholder="example.org" {...form.getInputProps('website')} />
          </Stack>
        </Paper>

        <Paper withBorder p="lg">
          <Title order={2} size="h4" mb="sm">
            Images
          </Title>
          <Stack>
            <ImageUpload
              label="Cover image"
              value={form.values.coverImage}
              onChange={(img) => form.setFieldValue('coverImage', img)}
            />
            {form.errors['coverImage.url'] ? (
              <Text c="red" size="sm">
                {form.errors['coverImage.url']}
              </Text>
            ) : null}
            <ImageThumbnails
              images={form.values.images}
              what="Project image"
              onRemove={(i) => form.removeListItem('images', i)}
            />
            <ImageUpload label="Add a project image" value={null} onChange={addImage} />
          </Stack>
        </Paper>

        <Group justify="flex-end">
          <Button component={Link} to={project ? `/show-up/${project.id}` : '/show-up'} variant="default">
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {project ? 'Save Changes' : 'Create Project'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

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
