import { useDrawingColumns } from "./drawing-columns";
import { DRAWING } from "./record-kinds";
import { RecordsPage } from "./RecordsPage";

/** /midjourney: the drawing task log (when drawing is enabled). */
export default function MidjourneyPage() {
  return <RecordsPage kind={DRAWING} columns={useDrawingColumns()} testId="drawing-page" />;
}
