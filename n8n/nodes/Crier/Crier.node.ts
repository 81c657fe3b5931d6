import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, INodeExecutionData, INodePropertyOptions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { crierList, crierRequest } from '../../shared/api';
import { operationFor } from './operations';
import { CRIER_PROPERTIES } from './properties';

interface Account {
  id: string;
  network: string;
  username: string;
  nickname?: string;
}

/** Crier's identifier of Pinterest, whose accounts list boards. */
const BOARDS_NETWORK = 'pinterest';

export class Crier implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Crier',
    name: 'crier',
    icon: 'file:../../icons/crier.svg',
    group: ['output'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Publish and schedule posts on social networks through your Crier',
    defaults: { name: 'Crier' },
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    usableAsTool: true,
    credentials: [{ name: 'crierApi', required: true }],
    properties: CRIER_PROPERTIES,
  };

  methods = {
    loadOptions: {
      /** The organization's connected accounts, as "network @username (nickname)". */
      async getAccounts(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
        const accounts = (await crierList.call(this, '/v1/social-accounts', 'data')) as unknown as Account[];
        return accounts.map((account) => ({
          name: `${account.network} @${account.username}${account.nickname && account.nickname !== account.username ? ` (${account.nickname})` : ''}`,
          value: account.id,
        }));
      },

      /** The boards of the Pinterest accounts among those chosen in Accounts. */
      async getPinterestBoards(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
        const chosen = new Set((this.getCurrentNodeParameter('accounts') as string[] | undefined) ?? []);
        const accounts = (await crierList.call(this, '/v1/social-accounts', 'data', { network: BOARDS_NETWORK })) as unknown as Account[];
        const options: INodePropertyOptions[] = [];
        for (const account of accounts.filter((a) => chosen.has(a.id))) {
          const boards = (await crierRequest.call(this, 'GET', `/v1/social-accounts/${encodeURIComponent(account.id)}/boards`)).data as IDataObject[];
          for (const board of boards) options.push({ name: `${String(board.name)} (@${account.username})`, value: String(board.id) });
        }
        return options;
      },
    },
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const resource = this.getNodeParameter('resource', 0) as string;
    const operation = this.getNodeParameter('operation', 0) as string;
    const run = operationFor(this, resource, operation);
    const output: INodeExecutionData[] = [];
    for (let item = 0; item < this.getInputData().length; item++) {
      try {
        const records = this.helpers.returnJsonArray(await run.call(this, item));
        output.push(...this.helpers.constructExecutionMetaData(records, { itemData: { item } }));
      } catch (error) {
        if (!this.continueOnFail()) throw error;
        output.push({ json: { error: (error as Error).message }, pairedItem: { item } });
      }
    }
    return [output];
  }
}
