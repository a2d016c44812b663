import { Group, Text, Tooltip } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram, IconBrandLinkedin, IconBrandX } from '@tabler/icons-react';
import { SOCIAL_PLATFORM_LABELS, type SocialPlatform } from '@lampstand/api/schemas/social-posts';

const ICONS: Record<SocialPlatform, typeof IconBrandFacebook> = {
  facebook: IconBrandFacebook,
  instagram: IconBrandInstagram,
  twitter: IconBrandX,
  linkedin: IconBrandLinkedin,
};

export function PlatformIcon({ platform, size = 16 }: { platform: SocialPlatform; size?: number }) {
  const Icon = ICONS[platform];
  return <Icon size={size} aria-hidden />;
}

/** The first two platform icons, then +N (the spec's calendar cell); the names for screen readers. */
export function PlatformIcons({
  platforms,
  size = 14,
  decorative = false,
}: {
  platforms: SocialPlatform[];
  size?: number;
  /** The names are said elsewhere (inside a button that reads them). */
  decorative?: boolean;
}) {
  const shown = platforms.slice(0, 2);
  const more = platforms.length - shown.length;
  const names = platforms.map((p) => SOCIAL_PLATFORM_LABELS[p]).join(', ');
  return (
    <Tooltip label={names} withArrow openDelay={300}>
      <Group gap={2} wrap="nowrap" {...(decorative ? { 'aria-hidden': true } : { 'aria-label': names, role: 'img' })}>
        {shown.map((p) => (
          <PlatformIcon key={p} platform={p} size={size} />
        ))}
        {more > 0 ? (
          <Text span size="xs" fw={600} aria-hidden>
            +{more}
          </Text>
        ) : null}
      </Group>
    </Tooltip>
  );
}
