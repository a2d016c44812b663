export declare const FIRST_LOAD_LIMIT_KB: number;
export declare const STATION_LIMIT_KB: number;
export declare function manifestClosure(
  manifest: Record<
    string,
    { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; assets?: string[] }
  >,
  key: string,
  opts?: { dynamic?: boolean },
  seen?: Set<string>,
): Set<string>;
export declare function bundleReport(): {
  entryKb: number;
  entryFiles: number;
  firstLoadKb: number;
  showUpProjectKb: number;
  stationKb: number;
  stationRoomKb: number;
  stationAllKb: number;
  routes: { route: string; kb: number }[];
};
