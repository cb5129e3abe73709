// The judgment audits of a baseline (schema version 4): per sample, the fingerprint of the question's
// judgments and the unjudged hits in its top k. Held beside the values (BaselineFile.audits) so that
// everything that reads values reads them as before.
import type { MetricSample } from '../recording/sample.js';
import { createRecord, own, type BaselineFile, type BaselineSampleAudits, type SampleAudit } from './file/types.js';

/** What a recorded sample kept about its judgments, as a baseline holds it; undefined when nothing. */
export function auditOfSample(
  sample: Pick<MetricSample, 'labels' | 'unjudgedIds' | 'unjudgedCount' | 'positiveOnly'>,
): SampleAudit | undefined {
  // Positive-only labels tell no unjudged hit from a non-relevant one: their count carries no information.
  const unjudged =
    sample.positiveOnly === true ? 0 : Math.max(sample.unjudgedCount ?? 0, sample.unjudgedIds?.length ?? 0);
  if (sample.labels === undefined) return unjudged > 0 ? { unjudged } : undefined;
  return unjudged > 0 ? { labels: sample.labels, unjudged } : { labels: sample.labels };
}

/** The audits of one suite × measure of `file`, if any. */
export function auditsOf(
  file: BaselineFile | undefined,
  suiteKey: string,
  measure: string,
): BaselineSampleAudits | undefined {
  const suite = file?.audits === undefined ? undefined : own(file.audits, suiteKey);
  return suite === undefined ? undefined : own(suite, measure);
}

/** Sets (or, with undefined, leaves out) the audit of one sample. */
export function setAudit(
  file: BaselineFile,
  suiteKey: string,
  measure: string,
  sampleId: string,
  audit: SampleAudit | undefined,
): void {
  if (audit === undefined) return;
  const suite = ((file.audits ??= createRecord())[suiteKey] ??= createRecord());
  (suite[measure] ??= createRecord())[sampleId] = audit;
}

/**
 * True when a sample was measured against other judgments than its baseline value: both carry a
 * fingerprint and they differ. A baseline without fingerprints (written before schema version 4) never
 * differs: it gains them on the next update.
 */
export function labelsChanged(baseline: SampleAudit | undefined, labels: string | undefined): boolean {
  return baseline?.labels !== undefined && labels !== undefined && baseline.labels !== labels;
}
