import { loadIr } from '/work/wt-31/test/helpers/load-ir.ts';
import { diffVersions } from '/work/wt-31/generator/diff/diff-history.ts';
import { buildUpgradeGuide } from '/work/wt-31/generator/diff/upgrade-guide.ts';
const ir = await loadIr('/work/wt-31/examples/ledger/api.ts');
console.log(JSON.stringify(buildUpgradeGuide(diffVersions(ir, '2025-01-15', '2025-09-01')), null, 1).slice(0, 6000));
