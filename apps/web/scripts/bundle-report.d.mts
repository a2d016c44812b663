export declare const FIRST_LOAD_LIMIT_KB: number;
export declare function bundleReport(): {
  entryKb: number;
  entryFiles: number;
  firstLoadKb: number;
  showUpProjectKb: number;
  routes: { route: string; kb: number }[];
};
