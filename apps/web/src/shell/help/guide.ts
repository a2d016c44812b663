/** A short, plain-words guide to one area of Lampstand, opened by the header's Help button. */
export interface Guide {
  /**
   * The addresses it explains: a path and every path under it ('/contacts'), or one tab of the
   * service planner ('/service-planner?tab=songs'). The longest that fits the screen wins.
   */
  paths: string[];
  title: string;
  /** What the screen is for, a paragraph or two. */
  about: string[];
  /** The most common tasks, each a short how-to. */
  tasks: { title: string; how: string }[];
}
