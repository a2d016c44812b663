import { SOCIAL_PLATFORM_LIMITS, SOCIAL_PLATFORMS, type SocialPlatform } from '../schemas/social-posts.js';

// Social posts as platforms count them.

/** Content length as platforms count it: characters, an emoji as one. */
export function socialLength(text: string): number {
  return Array.from(text).length;
}

/** Chosen platforms whose limit the text is past. */
export function platformsOverLimit(text: string, platforms: readonly string[]): SocialPlatform[] {
  const n = socialLength(text);
  return SOCIAL_PLATFORMS.filter((p) => platforms.includes(p) && n > SOCIAL_PLATFORM_LIMITS[p]);
}
