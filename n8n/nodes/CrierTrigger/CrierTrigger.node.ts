// Starts a workflow on Crier's webhook events. Activating the workflow registers a Crier webhook
// pointing at this node's n8n webhook URL, with a secret Crier generates; its id and secret are kept
// in the node's static data. Every delivery's signatures are checked against that secret before the
// workflow runs (401 otherwise). Deactivating deletes the webhook in Crier.
import type { IDataObject, IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { crierRequest, crierResponse } from '../../shared/api';
import { EVENT_OPTIONS } from '../../shared/events';
import { deliveryRefusal } from '../../shared/signature';

/** What the trigger keeps between activation and deliveries (the workflow's static data, per node). */
interface TriggerState {
  webhookId?: number;
  secret?: string;
}

const state = (context: IHookFunctions | IWebhookFunctions) => context.getWorkflowStaticData('node') as TriggerState;

function forget(stored: TriggerState): void {
  delete stored.webhookId;
  delete stored.secret;
}

function sameEvents(a: unknown, b: string[]): boolean {
  return Array.isArray(a) && a.length === b.length && b.every((event) => a.includes(event));
}

export class CrierTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Crier Trigger',
    name: 'crierTrigger',
    icon: 'file:../../icons/crier.svg',
    group: ['trigger'],
    version: 1,
    subtitle: '={{$parameter["events"].join(", ")}}',
    description: "Starts the workflow on Crier's webhook events (a post published or failed, a comment, a message...)",
    defaults: { name: 'Crier Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'crierApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Events', name: 'events', type: 'multiOptions', required: true, default: ['post.published'], options: EVENT_OPTIONS,
        description: 'The events that start the workflow',
      },
    ],
  };

  webhookMethods = {
    default: {
      /** Whether the webhook this node registered still exists in Crier, for this URL and these events. */
      async checkExists(this: IHookFunctions): Promise<boolean> {
        const stored = state(this);
        if (stored.webhookId === undefined) return false;
        const response = await crierResponse.call(this, 'GET', `/v1/webhooks/${stored.webhookId}`);
        if (response.statusCode === 404) {
          forget(stored);
          return false;
        }
        if (response.statusCode !== 200) {
          throw new NodeOperationError(this.getNode(), `Crier answered ${response.statusCode} when asked for webhook ${stored.webhookId}`);
        }
        const webhook = (response.body as IDataObject).data as IDataObject;
        const events = this.getNodeParameter('events') as string[];
        // A webhook for another URL or event list is not this activation's: create() replaces it.
        return webhook.url === this.getNodeWebhookUrl('default') && sameEvents(webhook.events, events) && webhook.enabled === true && stored.secret !== undefined;
      },

      async create(this: IHookFunctions): Promise<boolean> {
        // A webhook of this node left for another URL or event list (checkExists said so) is replaced, not kept beside the new one.
        const stored = state(this);
        if (stored.webhookId !== undefined) await crierResponse.call(this, 'DELETE', `/v1/webhooks/${stored.webhookId}`);
        const body = {
          name: `n8n: ${this.getWorkflow().name ?? this.getWorkflow().id} / ${this.getNode().name}`.slice(0, 200),
          url: this.getNodeWebhookUrl('default') as string,
          events: this.getNodeParameter('events') as string[],
          generateSecret: true,
        };
        const created = (await crierRequest.call(this, 'POST', '/v1/webhooks', { body })).data as { id: number; secret: string };
        Object.assign(stored, { webhookId: created.id, secret: created.secret });
        return true;
      },

      async delete(this: IHookFunctions): Promise<boolean> {
        const stored = state(this);
        if (stored.webhookId !== undefined) {
          const response = await crierResponse.call(this, 'DELETE', `/v1/webhooks/${stored.webhookId}`);
          // Already gone (deleted in Crier by hand) is what deletion wants too.
          if (response.statusCode !== 200 && response.statusCode !== 404) return false;
        }
        forget(stored);
        return true;
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const request = this.getRequestObject();
    if (!request.rawBody) await request.readRawBody();
    const { secret } = state(this);
    const refusal = secret === undefined ? 'this trigger has registered no webhook' : deliveryRefusal(secret, request.rawBody, request.headers);
    if (refusal) {
      const response = this.getResponseObject();
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: `Signature refused: ${refusal}` }));
      return { noWebhookResponse: true };
    }
    // The event as signed: parsed from the verified bytes, not from a body another layer parsed.
    const event = JSON.parse(request.rawBody.toString('utf8')) as IDataObject;
    return { workflowData: [this.helpers.returnJsonArray(event)] };
  }
}
