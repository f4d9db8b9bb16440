/**
 * Step 3b of an HTTP start that needs OAuth: the user is signing in in the browser. The wait is
 * outside the initialize timeout (a person takes their time) and ends with the attempt.
 */
import { StartCancelled, type StartAttempt } from './attempt';

/** `abandon` gives the authorization up when the attempt is cancelled (the person may never finish). */
export function waitForSignIn(attempt: StartAttempt, authorization: Promise<unknown>, abandon: () => void = () => {}): Promise<void> {
  attempt.check();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => { abandon(); reject(new StartCancelled()); };
    attempt.signal.addEventListener('abort', onAbort, { once: true });
    authorization.then(() => resolve(), reject).finally(() => attempt.signal.removeEventListener('abort', onAbort));
  });
}
