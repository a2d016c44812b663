import '@mantine/dates/styles.css';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCurrentLocation } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { createProjectSchema, PROJECT_CATEGORIES, type Project } from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { showFailure, useSave } from '../../lib/use-save';
import { notifySuccess } from '../../ui/notify';
import { ImageThumbnails, ImageUpload, type UploadedImage } from '../../ui/image-upload';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';
import { type Values, initialValues } from './project-form-values';

export function ProjectForm({ project }: { project?: Project }) {
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
      showFailure(
        { errorTitle: 'Geolocation not supported' },
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
      (err) => showFailure({ errorTitle: 'Location detection failed' }, err.message),
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
