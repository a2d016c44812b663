import {
  Anchor,
  Box,
  Button,
  Center,
  Grid,
  List,
  Paper,
  PasswordInput,
  Stack,
  Tabs,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCalendarTime, IconMail, IconQrcode, IconUsers, IconWorldWww } from '@tabler/icons-react';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { loginSchema, registerFormSchema, type RegisterFormValues } from '@lampstand/api/schemas/auth';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { browserTimeZone } from '../../lib/time-zone';
import { TimeZoneSelect } from '../../ui/time-zone';
import { CountrySelect } from '../../ui/country-select';
import { countryFromTimeZone, guessCountry } from '@lampstand/api/shared/locale';
import { useSession } from '../../shell/session';

const BENEFITS = [
  { icon: IconMail, text: 'Email and SMS campaigns with templates' },
  { icon: IconWorldWww, text: 'Landing pages with a drag-and-drop builder' },
  { icon: IconQrcode, text: 'Custom QR codes' },
  { icon: IconCalendarTime, text: 'Scheduling and automation' },
  { icon: IconUsers, text: 'Contact management with tags and lists' },
];

function LoginForm({ onSwitch }: { onSwitch: () => void }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const form = useForm({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: schemaResolver(loginSchema, { sync: true }),
  });
  const login = useSave(trpc.auth.login, {
    success: (user) => ['Login successful', `Welcome back, ${user.churchName}!`],
    errorTitle: 'Login failed',
    errorStatus: true,
    onSuccess: (user) => {
      utils.auth.me.setData(undefined, user);
      void navigate('/', { replace: true });
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
      <Stack>
        <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} />
        <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
        <Button type="submit" fullWidth disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign in'}
        </Button>
        <Text size="sm" ta="center">
          <Anchor component="button" type="button" onClick={onSwitch}>
            Don't have an account? Sign up
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

function RegisterForm({ onSwitch }: { onSwitch: () => void }) {
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const form = useForm<RegisterFormValues>({
    mode: 'controlled',
    initialValues: {
      churchName: '',
      email: '',
      username: '',
      password: '',
      confirmPassword: '',
      role: 'admin',
      timeZone: browserTimeZone() ?? 'UTC',
      country: guessCountry({ timeZone: browserTimeZone(), languages: navigator.languages }),
    },
    validate: schemaResolver(registerFormSchema, { sync: true }),
  });
  // /auth?setup=<token>: the one-time token from the server log makes this account the administrator.
  const setupToken = useSearchParams()[0].get('setup');
  const register = useSave(trpc.auth.register, {
    success: (user) => ['Registration successful', `Welcome to Lampstand, ${user.churchName}!`],
    errorTitle: 'Registration failed',
    errorStatus: true,
    onSuccess: (user) => {
      utils.auth.me.setData(undefined, user);
      void navigate('/', { replace: true });
    },
  });
  return (
    <form
      onSubmit={form.onSubmit(({ confirmPassword: _confirm, ...values }) =>
        register.mutate({ ...values, ...(setupToken ? { setupToken } : {}) }),
      )}
      noValidate
    >
      <Stack>
        <TextInput label="Church Name" autoComplete="organization" {...form.getInputProps('churchName')} />
        <TextInput label="Email" type="email" autoComplete="email" {...form.getInputProps('email')} />
        <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} />
        <PasswordInput label="Password" autoComplete="new-password" {...form.getInputProps('password')} />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          {...form.getInputProps('confirmPassword')}
        />
        <TimeZoneSelect
          {...form.getInputProps('timeZone')}
          onChange={(zone) => {
            form.setFieldValue('timeZone', zone ?? 'UTC');
            // The country follows the time zone chosen (a zone in Chicago: the United States).
            const country = countryFromTimeZone(zone);
            if (country) form.setFieldValue('country', country);
          }}
        />
        <CountrySelect {...form.getInputProps('country')} />
        <Button type="submit" fullWidth disabled={register.isPending}>
          {register.isPending ? 'Creating account...' : 'Create account'}
        </Button>
        <Text size="sm" ta="center">
          <Anchor component="button" type="button" onClick={onSwitch}>
            Already have an account? Sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

export function AuthPage() {
  const { user, isLoading } = useSession();
  const [params] = useSearchParams();
  const [tab, setTab] = useState<string>(params.get('setup') ? 'register' : 'login');
  if (!isLoading && user) return <Navigate to="/" replace />;
  return (
    <Box mih="100vh" bg="gray.0">
      <Grid gap={0} mih="100vh">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Center mih="100vh" p="md">
            <Paper withBorder shadow="sm" p="xl" w="100%" maw={440} component="main">
              <Stack gap={4} mb="lg" ta="center">
                <Title order={1} c="indigo">
                  Lampstand
                </Title>
                <Text c="dimmed">Church marketing simplified</Text>
              </Stack>
              <Tabs value={tab} onChange={(v) => setTab(v ?? 'login')} keepMounted={false}>
                <Tabs.List grow mb="md">
                  <Tabs.Tab value="login">Login</Tabs.Tab>
                  <Tabs.Tab value="register">Register</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="login">
                  <LoginForm onSwitch={() => setTab('register')} />
                </Tabs.Panel>
                <Tabs.Panel value="register">
                  <RegisterForm onSwitch={() => setTab('login')} />
                </Tabs.Panel>
              </Tabs>
            </Paper>
          </Center>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }} visibleFrom="md">
          <Center mih="100vh" p="xl" bg="indigo.9" c="white" component="aside" aria-label="Why Lampstand">
            <Stack maw={440}>
              <Title order={2}>Reach your congregation and community</Title>
              <Text c="white">Everything your church needs to communicate, in one place.</Text>
              <List spacing="md" center>
                {BENEFITS.map((b) => (
                  <List.Item
                    key={b.text}
                    icon={
                      <ThemeIcon color="yellow" c="dark" radius="xl" size={30}>
                        <b.icon size={18} />
                      </ThemeIcon>
                    }
                  >
                    <Text c="white">{b.text}</Text>
                  </List.Item>
                ))}
              </List>
            </Stack>
          </Center>
        </Grid.Col>
      </Grid>
    </Box>
  );
}
