// The one path of the Bot API: "All queries to the Telegram Bot API must be served over HTTPS and need
// to be presented in this form: https://api.telegram.org/bot<token>/METHOD_NAME", by GET or POST
// (https://core.telegram.org/bots/api#making-requests). A token no bot has answers 401 Unauthorized, a
// method the API does not have 404 Not Found, a body that cannot be read 400.
import { badRequest, notFound, unauthorized, type Answer } from '../errors.ts';
import type { TelegramWorld } from '../state.ts';
import { paramsOf } from '../validate.ts';
import { METHODS } from './methods.ts';

export interface BotRequest {
  token: string;
  method: string;
  query: unknown;
  body: unknown;
  contentType: string | undefined;
}

export async function answerBotRequest(world: TelegramWorld, request: BotRequest): Promise<Answer> {
  const bot = world.bots.get(request.token);
  if (!bot || bot.revoked) return unauthorized();
  const method = METHODS[request.method.toLowerCase()];
  if (!method) return notFound();
  const params = await paramsOf(request.query, request.body, request.contentType);
  if (!params) return badRequest("can't parse request body");
  const answer = await method({ world, bot, params });
  const stall = world.stalls.get(request.method.toLowerCase());
  if (stall && stall.skip > 0) stall.skip -= 1;
  else if (stall) {
    world.stalls.delete(request.method.toLowerCase());
    await new Promise((resolve) => setTimeout(resolve, stall.ms));
  }
  return answer;
}
