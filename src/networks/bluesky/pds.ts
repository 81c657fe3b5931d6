// Where a Bluesky account's calls may go. The service Crier is configured with (CRIER_BLUESKY_SERVICE)
// is the operator's choice and trusted. The PDS address named by the account's DID document is the
// account owner's choice: the client library learns it at login and again at every session refresh,
// and then sends the account's tokens and posts there. Unless it is that same origin it is a
// user-supplied address like a media URL: it is checked when the account is connected, every call to
// it goes through the SSRF guard (https only, addresses judged when the socket opens), and what it
// answers is never shown beyond a short classified reason.
import { checkUrl } from '../../security/ssrf.ts';

export function isServiceOrigin(url: string | URL, service: string): boolean {
  return new URL(url).origin === new URL(service).origin;
}

/** The fetch an agent uses: the configured service directly, any other address through `userFetch`. */
export function pdsFetch(service: string, userFetch: typeof fetch): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return isServiceOrigin(url, service) ? fetch(input, init) : userFetch(input, init);
  };
}

/** Connect-time check of the PDS address a login revealed; rejects with the SsrfError. */
export async function checkPdsAddress(pdsUrl: string, service: string, allowLoopback: boolean): Promise<void> {
  if (!isServiceOrigin(pdsUrl, service)) await checkUrl(pdsUrl, { allowLoopback });
}
