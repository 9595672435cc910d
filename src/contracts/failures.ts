/**
 * The failure contract every layer may use: what went wrong with a task, as a person reads it.
 * Readers, converters and engines throw TaskError with a TaskFailure; the task runner records it.
 * It imports nothing of the project, so any module may import it (lower layers included).
 */
/**
 * Why a task failed, as a tagged union mapped exhaustively to the message a person reads.
 * Internal error text never reaches the client: it goes to the log.
 */
export type TaskFailure =
  | { reason: 'encrypted' }
  | { reason: 'wrong_password' }
  | { reason: 'not_encrypted' }
  | { reason: 'corrupt' }
  | { reason: 'page_out_of_range'; page: number; pages: number }
  | { reason: 'input_expired' }
  | { reason: 'too_large_for_engine' }
  | { reason: 'timed_out' }
  | { reason: 'gave_up'; attempts: number }
  | { reason: 'page_failed'; page: number }
  | { reason: 'internal' }
  /** An unexpected exception or an engine trap in our own code: ours, never called damage. */
  | { reason: 'internal_fault' }
  /** The file went past a reader's limit (nesting, declared size, count): the message names it. */
  | { reason: 'limit_exceeded'; message: string }
  /** Memory really ran out, on a fresh engine as well. */
  | { reason: 'out_of_memory' }
  /** `message`: the converter's own words, for formats other than Word (a workbook's "open it in Excel"). */
  | { reason: 'document_password'; message?: string }
  | { reason: 'document_corrupt'; message?: string }
  /** The converter read the content and says what it is instead (an RTF named .doc, Word 2.0...). */
  | { reason: 'document_unreadable'; message: string };

export function failureMessage(f: TaskFailure): string {
  switch (f.reason) {
    case 'encrypted':
      return 'The PDF is password-protected: unlock it with POST /v1/pdf/unlock first, then run this operation on the unlocked file.';
    case 'wrong_password':
      return 'The password is wrong: the PDF does not open with it. Passwords are case-sensitive; check it and try again (the payment was returned).';
    case 'not_encrypted':
      return 'The PDF is not password-protected: there is nothing to unlock, the file can be used as it is (the payment was returned).';
    case 'corrupt':
      return 'The file is damaged and could not be repaired: re-export or re-save it from the program that made it and upload it again.';
    case 'page_out_of_range':
      return `Page ${f.page} does not exist: the document has ${f.pages} page${f.pages === 1 ? '' : 's'}. Choose pages from 1 to ${f.pages}.`;
    case 'input_expired':
      return 'The input file expired or was deleted before the task ran: upload it again and repeat the request.';
    case 'too_large_for_engine':
      return 'The document is too large or complex to process in one task: split it into smaller parts and process them separately.';
    case 'timed_out':
      return 'The task did not finish in time: try again, or split the document into smaller parts.';
    case 'page_failed':
      return `Page ${f.page} could not be recognised: it failed on every retry (out of memory or time). Split that page off, or make its picture smaller with POST /v1/pdf/compress, and try again (the payment was returned).`;
    case 'gave_up':
      return `The task failed ${f.attempts} times in a row (out of memory or time): split the document into smaller parts and try again.`;
    case 'internal':
      return 'An internal error stopped the task: the payment was returned; please try again later.';
    case 'internal_fault':
      return 'This file hit a fault in our converter, not in the file: the failure was logged for a fix and the payment was returned. Trying again later, or saving the file again from the program that made it, may avoid it.';
    case 'out_of_memory':
      return 'Processing this file ran out of memory, on a fresh engine as well: the payment was returned. Split the document into smaller parts, or make its pictures smaller with POST /v1/pdf/compress, and try again.';
    case 'limit_exceeded':
      return `${capitalise(f.message.replace(/[.\s]+$/, ''))}: the file goes past what this service reads, so it was not converted (the payment was returned). Simplify or split it and try again.`;
    case 'document_password':
      if (f.message) return f.message;
      return 'The document is password-protected: open it in Word, remove the password (File → Info → Protect Document → Encrypt with Password, clear the field), save it and upload it again.';
    case 'document_corrupt':
      if (f.message) return f.message;
      return 'The document is damaged or incomplete (for example a download that was cut off): open it in Word, save it again as .docx and upload it again.';
    case 'document_unreadable':
      return f.message;
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Thrown by operations for input problems: permanent, the task fails at once and is refunded. */
export class TaskError extends Error {
  constructor(readonly failure: TaskFailure) {
    super(failure.reason);
  }
}
