import { ASYNC_TASKS } from "./record-kinds";
import { RecordsPage } from "./RecordsPage";
import { useTaskColumns } from "./task-columns";

/** /task: the async task log (when tasks are enabled). */
export default function TaskPage() {
  return <RecordsPage kind={ASYNC_TASKS} columns={useTaskColumns()} testId="task-page" />;
}
