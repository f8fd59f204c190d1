/** This process's peak resident memory in KiB (see peak-rss.mjs). */
export declare function peakRssKiB(): number;
