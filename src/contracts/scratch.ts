/**
 * Where a task's scratch objects live in R2: the steps of a long task hand on to each other under
 * the task's own prefix (to-jpg's pages rendered so far, OCR's page images and readings), and the
 * task object deletes the prefix when the task ends. Every side that names one uses these keys.
 */

/** The R2 prefix of a task's scratch objects. */
export const scratchPrefix = (taskId: string) => `scratch/${taskId}/`;

/** The R2 key of a task's scratch object `name`. */
export const scratchKey = (taskId: string, name: string) => scratchPrefix(taskId) + name;
