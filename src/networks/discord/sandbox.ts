// The Discord emulator in `crier start --sandbox`: the sandbox account is the webhook "sandbox_discord"
// (one word: the start guide prints it as @sandbox_discord) of the #announcements channel of the server
// "Crier Sandbox", connected with its URL as a user would. Its id is fixed, so that the sandbox account
// is the same account on every run (the emulator starts empty, and would otherwise make a new webhook).
// A user may make another webhook of the emulator (a forum channel's, to try threadName) the same way.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import { emulatorSpec } from '../emulator.ts';
import { connectWebhook } from './connect.ts';

/** A snowflake of 2026-11-29T00:00Z: the milliseconds since Discord's epoch (2015-01-01) shifted 22 bits. */
const SANDBOX_WEBHOOK_ID = '1576387215360000000';

export const discordEmulator = emulatorSpec(
  'discord',
  async (host) => (await import('../../../emulators/discord/server.ts')).startDiscordEmulator({ host }),
  (discord) => ({
    async sandboxAccounts() {
      const webhook = discord.addWebhook({ id: SANDBOX_WEBHOOK_ID, name: 'sandbox_discord', channelName: 'announcements', guildName: 'Crier Sandbox' });
      const account = await connectWebhook(discord.url, { webhookUrl: webhook.url });
      return [{ network: 'discord', username: account.username, nickname: 'Sandbox Discord', networkUniqueId: account.networkUniqueId, credential: account.credential }];
    },
  }),
);
