// Home (/): upload zone and analysis buttons, replaced by the progress screen while a scan runs.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ShieldCheck } from 'lucide-react';
import { Card } from '../../../components/ui/Card.js';
import { useScanRun } from '../hooks/useScanRun.js';
import { AnalysisChooser } from './AnalysisChooser.js';
import { DropZone } from './DropZone.js';
import { FeatureHighlights } from './FeatureHighlights.js';
import { ScanProgress } from './ScanProgress.js';

export function HomePage() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const { run, start, cancel } = useScanRun();

  return (
    <div className="mx-auto max-w-5xl">
      <section className="text-center">
        <ShieldCheck className="mx-auto size-14 text-emerald-500" aria-hidden />
        <h1 className="mt-4 text-3xl font-bold sm:text-4xl" data-testid="home-title">
          {t('home.title')}
        </h1>
        <p className="mx-auto mt-3 max-w-2xl text-gray-600 dark:text-gray-300">
          {t('home.subtitle')}
        </p>
      </section>
      <div className="mx-auto mt-10 max-w-2xl">
        {run ? (
          <ScanProgress run={run} onCancel={() => void cancel()} />
        ) : (
          <Card className="space-y-5">
            <DropZone file={file} onFileChange={setFile} />
            <AnalysisChooser
              hasFile={file !== null}
              onStart={(scanType) => {
                if (file) void start(file, scanType);
              }}
            />
          </Card>
        )}
      </div>
      <FeatureHighlights />
    </div>
  );
}
