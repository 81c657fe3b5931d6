// The linkedin emulator in `crier start --sandbox`: the sandbox member (@sandbox_linkedin) and the
// company page they administer (@sandbox-company), both connected out of the box, and the connect
// flow of an app registered on it (the same member consents, so a connect finds both again). Imported
// only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec, sandboxPeople } from '../emulator.ts';
import { LINKEDIN_SCOPES } from './oauth.ts';

const MEMBER = { sub: 'sandbox-member', email: 'sandbox_linkedin@example.com', givenName: 'Sandbox', familyName: 'Member' };
const COMPANY = { localizedName: 'Sandbox Company', vanityName: 'sandbox-company' };
/** The app the sandbox accounts' tokens are issued to. */
const SANDBOX_APP = { clientId: 'crier-sandbox', clientSecret: 'crier-sandbox-secret', redirectUris: [] };
/**
 * The sandbox accounts' scopes: Crier's, plus r_member_social, which LinkedIn grants only to approved
 * developers; the sandbox app is one, so the member's posts show their comments as the page's do.
 */
const SANDBOX_SCOPES = [...LINKEDIN_SCOPES, 'r_member_social'];

export const linkedinEmulator = oauthEmulatorSpec(
  'linkedin',
  async (host) => (await import('../../../emulators/linkedin/server.ts')).startLinkedInEmulator({ host }),
  // The user who consents on connect is the sandbox member, created by sandboxAccounts() first.
  () => MEMBER.sub,
  async (emulator) => {
    const member = emulator.addUser(MEMBER);
    const page = emulator.addOrganization(COMPANY);
    emulator.grantRole(page.id, member.sub);
    emulator.addApp(SANDBOX_APP);
    const token = emulator.oauth.issue(member.sub, SANDBOX_APP.clientId, SANDBOX_SCOPES, false).accessToken;
    return [
      { network: 'linkedin', username: 'sandbox_linkedin', nickname: member.name, networkUniqueId: `urn:li:person:${member.sub}`, accessToken: token },
      { network: 'linkedin', username: COMPANY.vanityName, nickname: COMPANY.localizedName, networkUniqueId: `urn:li:organization:${page.id}`, accessToken: token },
    ];
  },
  {
    engagement: (emulator) => {
      // Each made-up person is a member of their own: the comment's actor is their person URN.
      const person = sandboxPeople((username) => emulator.addUser({ givenName: username, familyName: '', name: username }).sub);
      return {
        // A comment on the post, whichever account (member or page) published it. Comments nest one
        // level: an answer to an answer goes under the top-level comment, as LinkedIn puts it. Crier
        // lists comments by their numeric id; a parent may also be named by its URN.
        addComment: async ({ post, parentCommentId, text, author }) => {
          let on = post.root.platformId;
          if (parentCommentId !== undefined) {
            const parent = emulator.comments(on).find((c) => c.id === parentCommentId || c.urn === parentCommentId);
            if (!parent) throw new Error(`no comment ${parentCommentId} on ${on}`);
            on = parent.parentComment ?? parent.urn;
          }
          return { commentId: emulator.addComment({ on, actor: `urn:li:person:${person(author)}`, text }).id };
        },
      };
    },
  },
);
