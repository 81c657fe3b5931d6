import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/** A Crier organization's API key and the address of the Crier that issued it. */
export class CrierApi implements ICredentialType {
  name = 'crierApi';

  displayName = 'Crier API';

  icon = 'file:../icons/crier.svg' as const;

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: 'http://localhost:3000',
      placeholder: 'https://crier.example.com',
      description: 'Where your Crier answers, without /v1',
      required: true,
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      description: 'An API key of your organization (crier_…): the dashboard or POST /v1/api-keys makes one',
      required: true,
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  };

  // Any valid key may list its organization's accounts: a 200 proves both the address and the key.
  test: ICredentialTestRequest = {
    request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}', url: '/v1/social-accounts', method: 'GET' },
  };
}
