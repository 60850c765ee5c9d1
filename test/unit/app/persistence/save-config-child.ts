// Run by atomic-file.test.ts under a file-size limit (ulimit -f): saves a config larger than the
// limit through the real ConfigStore and prints the error code the save failed with (or "saved").
// Run: node --import tsx save-config-child.ts <dataDir> <environmentCount>
import { ConfigStore } from '../../../../electron/app/persistence/config-store';

const [dataDir, count] = process.argv.slice(2);
const store = new ConfigStore(dataDir!);
const { config } = await store.load();
const environments = Array.from({ length: Number(count) }, (_, i) => ({
  id: `env-${i}`,
  name: `Environment number ${i}`,
  color: '#123456',
  settings: { kind: 'ws' as const, url: `ws://127.0.0.1:${10_000 + i}` },
  enabled: false,
}));
try {
  await store.save({ ...config, environments: [...config.environments, ...environments] });
  process.stdout.write('saved\n');
} catch (error) {
  process.stdout.write(`${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
}
