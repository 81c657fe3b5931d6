// n8n around the packed n8n-nodes-crier, with n8n's own packages (n8n-core, n8n-workflow):
//  - the package is packed (npm pack runs its build), installed offline from the tarball into a
//    folder laid out like n8n's custom-nodes folder, and read by n8n-core's PackageDirectoryLoader,
//    the loader n8n uses for community packages (package.json `n8n` section, class per file, icons);
//  - workflows run in n8n-core's WorkflowExecute, whose ExecuteContext gives the Crier node its
//    parameters (expressions resolved by n8n), input items and binary data, and its HTTP helpers;
//  - loadOptions run in n8n-core's LoadOptionsContext; the trigger's checkExists/create/delete in its
//    HookContext and its webhook() in its WebhookContext, with the Workflow's static data kept between them.
// n8n's server (packages/cli, whose npm package does not install here) is not used. What stands in
// for it: `credentialsHelper` (hands the credential's fields over and applies the credential type's
// `authenticate` block through the Workflow's expression engine, as n8n's CredentialsHelper does),
// `activate`/`deactivate` (call the webhook methods in n8n's order: checkExists, then create when it
// answers false; delete on deactivation), and `deliver` (n8n's webhook HTTP layer: raw and parsed
// body, then a 200 unless the node answered itself).
import { execFile } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { PackageDirectoryLoader } from 'n8n-core';
import type {
  ICredentialsHelper,
  Workflow,
  IAuthenticateGeneric,
  ICredentialDataDecryptedObject,
  ICredentialType,
  IDataObject,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  INodeType,
  INodeTypes,
  IRun,
  IWebhookData,
  IWorkflowExecuteAdditionalData,
  WorkflowExecuteMode,
} from 'n8n-workflow';

// n8n's packages are CommonJS (n8n-workflow's ES build does not load in Node: extensionless
// imports): required as n8n requires them, so that n8n-core and the nodes share one n8n-workflow.
const require = createRequire(import.meta.url);
const { ExecutionLifecycleHooks, HookContext, LoadOptionsContext, PackageDirectoryLoader: Loader, WebhookContext, WorkflowExecute } = require('n8n-core') as typeof import('n8n-core');
const n8nWorkflow = require('n8n-workflow') as typeof import('n8n-workflow');

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
export const PACKAGE_NAME = 'n8n-nodes-crier';

/** npm with no registry it could reach and its own cache: whatever it installs comes from the tarball. */
function npmEnv(work: string): NodeJS.ProcessEnv {
  const outside = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...outside, npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: path.join(work, 'npm-cache'), npm_config_update_notifier: 'false' };
}

export interface InstalledPackage {
  /** The package's folder under the custom folder's node_modules. */
  directory: string;
  /** The files the tarball holds, sorted. */
  packedFiles: string[];
}

/**
 * Packs a copy of n8n/ (its build writes dist/ in the copy, not in the working tree) beside a link to
 * the repository's node_modules (tsc, n8n-workflow's types), and installs the tarball into
 * `<work>/custom`, as the README tells users to. n8n-workflow is a peer dependency that n8n itself
 * provides: here the repository's copy, linked in, so that n8n-core and the nodes share one.
 */
export async function installPackage(work: string): Promise<InstalledPackage> {
  const copy = path.join(work, 'repo', 'n8n');
  await cp(path.join(root, 'n8n'), copy, { recursive: true, filter: (source) => !/[/\\](dist|node_modules)$|\.tgz$/.test(source) });
  await symlink(path.join(root, 'node_modules'), path.join(work, 'repo', 'node_modules'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy, env: npmEnv(work) });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];

  const custom = path.join(work, 'custom');
  await mkdir(custom, { recursive: true });
  await writeFile(path.join(custom, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--legacy-peer-deps', path.join(work, packed!.filename)], { cwd: custom, env: npmEnv(work) });
  // After the install: npm removes from node_modules what its package.json does not name.
  await symlink(path.join(root, 'node_modules', 'n8n-workflow'), path.join(custom, 'node_modules', 'n8n-workflow'));
  return { directory: path.join(custom, 'node_modules', PACKAGE_NAME), packedFiles: packed!.files.map((f) => f.path).sort() };
}

/** The installed package as n8n's loader reads it. */
export async function loadPackage(directory: string): Promise<PackageDirectoryLoader> {
  const loader = new Loader(directory);
  await loader.loadAll();
  return loader;
}

export interface CrierCredential {
  baseUrl: string;
  apiKey: string;
}

/** n8n names a community node `<package>.<node>`: the type a workflow's node carries. */
export const nodeType = (name: string) => `${PACKAGE_NAME}.${name}`;

/** A node of a workflow, as n8n stores it, with the Crier credential attached. */
export function crierNode(name: string, type: string, parameters: INode['parameters'], extra: Partial<INode> = {}): INode {
  return { id: name, name, type: nodeType(type), typeVersion: 1, position: [0, 0], parameters, credentials: { crierApi: { id: '1', name: 'Crier' } }, ...extra };
}

export class N8nRuntime {
  private readonly nodeTypes: INodeTypes;
  private executions = 0;
  /** The items the deliveries accepted by the trigger started its workflow with. */
  readonly triggered: INodeExecutionData[] = [];

  private readonly loader: PackageDirectoryLoader;
  private readonly credential: CrierCredential;
  /** Where n8n's webhooks are served: n8n's WEBHOOK_URL + /webhook. */
  private readonly webhookBaseUrl: string;

  constructor(loader: PackageDirectoryLoader, credential: CrierCredential, webhookBaseUrl = 'https://n8n.invalid/webhook') {
    this.loader = loader;
    this.credential = credential;
    this.webhookBaseUrl = webhookBaseUrl;
    const byType = (type: string): INodeType => {
      if (!type.startsWith(`${PACKAGE_NAME}.`)) throw new Error(`no node type ${type} in this runtime`);
      return loader.getNode(type.slice(PACKAGE_NAME.length + 1)).type as INodeType;
    };
    this.nodeTypes = { getByName: byType, getByNameAndVersion: byType, getKnownTypes: () => ({}) };
  }

  nodeTypeOf(node: INode): INodeType {
    return this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion) as INodeType;
  }

  credentialType(name: string): ICredentialType {
    return this.loader.getCredential(name).type;
  }

  workflow(nodes: INode[], connections: Workflow['connectionsBySourceNode'] = {}, staticData: IDataObject = {}): Workflow {
    return new n8nWorkflow.Workflow({ id: 'wf1', name: 'Crier workflow', nodes, connections, active: false, nodeTypes: this.nodeTypes, staticData });
  }

  /** What n8n's CredentialsHelper does for these nodes: the stored fields, and the type's generic `authenticate`. */
  private credentialsHelper(): ICredentialsHelper {
    const credential = this.credential as unknown as ICredentialDataDecryptedObject;
    const credentialType = (name: string) => this.credentialType(name);
    const unused = (what: string) => () => {
      throw new Error(`${what} is not part of this runtime`);
    };
    return {
      getParentTypes: () => [],
      isCredentialUsableByNode: () => true,
      getDecrypted: async () => ({ ...credential }),
      async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions, workflow?: Workflow, node?: INode) {
        const { properties } = credentialType(typeName).authenticate as IAuthenticateGeneric;
        const resolve = (value: string) => String(workflow!.expression.getSimpleParameterValue(node!, value, 'internal', { $credentials: credentials }, undefined, ''));
        const headers = Object.fromEntries(Object.entries(properties.headers ?? {}).map(([name, value]) => [name, resolve(String(value))]));
        return { ...requestOptions, headers: { ...requestOptions.headers, ...headers } };
      },
      preAuthentication: async () => undefined,
      runPreAuthentication: async () => undefined,
      getCredentials: unused('getCredentials'),
      updateCredentials: unused('updateCredentials'),
      updateCredentialsOauthTokenData: unused('updateCredentialsOauthTokenData'),
      getCredentialsProperties: (type: string) => credentialType(type).properties,
    } as ICredentialsHelper;
  }

  /** The execution's surroundings n8n's server would give (URLs, credentials); no sub-workflows, no UI. */
  additionalData(extra: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
    const base = this.webhookBaseUrl.replace(/\/webhook$/, '');
    return {
      credentialsHelper: this.credentialsHelper(),
      executionId: `exec${++this.executions}`,
      currentNodeExecutionIndex: 0,
      restApiUrl: `${base}/rest`,
      instanceBaseUrl: base,
      webhookBaseUrl: this.webhookBaseUrl,
      webhookTestBaseUrl: `${base}/webhook-test`,
      webhookWaitingBaseUrl: `${base}/webhook-waiting`,
      formBaseUrl: `${base}/form`,
      formTestBaseUrl: `${base}/form-test`,
      formWaitingBaseUrl: `${base}/form-waiting`,
      mcpBaseUrl: `${base}/mcp`,
      mcpTestBaseUrl: `${base}/mcp-test`,
      variables: {},
      ...extra,
    } as IWorkflowExecuteAdditionalData;
  }

  /**
   * Runs `workflow` in n8n's WorkflowExecute, its first node given `input` (what a preceding trigger
   * or file-reading node would have output): the answer is n8n's run, with each node's output.
   */
  async execute(workflow: Workflow, first: INode, input: INodeExecutionData[] = [{ json: {} }]): Promise<IRun> {
    const additionalData = this.additionalData();
    additionalData.hooks = new ExecutionLifecycleHooks('manual', additionalData.executionId!, { id: workflow.id, name: workflow.name, nodes: Object.values(workflow.nodes), connections: workflow.connectionsBySourceNode, active: false, settings: {}, createdAt: new Date(), updatedAt: new Date(), isArchived: false, activeVersionId: null } as never);
    const runData = n8nWorkflow.createRunExecutionData({ executionData: { nodeExecutionStack: [{ node: first, data: { main: [input] }, source: null }] } });
    return await new WorkflowExecute(additionalData, 'manual', runData).processRunExecutionData(workflow);
  }

  /** What the editor shows for a loadOptions field: the node's method run in n8n's LoadOptionsContext. */
  async loadOptions(node: INode, method: string, currentParameters: INode['parameters'] = node.parameters) {
    const workflow = this.workflow([node]);
    const context = new LoadOptionsContext(workflow, node, this.additionalData({ currentNodeParameters: currentParameters }), `parameters.${method}`);
    return await this.nodeTypeOf(node).methods!.loadOptions![method]!.call(context);
  }

  private webhookData(workflow: Workflow, node: INode): IWebhookData {
    const description = this.nodeTypeOf(node).description.webhooks![0]!;
    return { httpMethod: 'POST', node: node.name, path: String(description.path), webhookDescription: description, workflowId: workflow.id, workflowExecuteAdditionalData: this.additionalData(), webhookId: node.webhookId };
  }

  private async hook(workflow: Workflow, node: INode, method: 'checkExists' | 'create' | 'delete', mode: WorkflowExecuteMode = 'trigger'): Promise<boolean> {
    const data = this.webhookData(workflow, node);
    const context = new HookContext(workflow, node, data.workflowExecuteAdditionalData, mode, 'activate', data);
    return await this.nodeTypeOf(node).webhookMethods!.default![method]!.call(context);
  }

  /** Activating a workflow, as n8n does for each webhook of a trigger: checkExists, and create when it answers false. */
  async activate(workflow: Workflow, node: INode): Promise<{ existed: boolean }> {
    if (await this.hook(workflow, node, 'checkExists')) return { existed: true };
    if (!(await this.hook(workflow, node, 'create'))) throw new Error('create answered false');
    return { existed: false };
  }

  async deactivate(workflow: Workflow, node: INode): Promise<boolean> {
    return await this.hook(workflow, node, 'delete');
  }

  /** The URL n8n serves the trigger's webhook at (HookContext.getNodeWebhookUrl), path only. */
  webhookPath(workflow: Workflow, node: INode): string {
    const data = this.webhookData(workflow, node);
    const url = new HookContext(workflow, node, data.workflowExecuteAdditionalData, 'trigger', 'activate', data).getNodeWebhookUrl('default')!;
    return new URL(url).pathname;
  }

  /** A request to the trigger's webhook URL, handled as n8n's webhook server does: the node's webhook() in a WebhookContext. */
  async deliver(workflow: Workflow, node: INode, request: IncomingMessage, response: ServerResponse, rawBody: Buffer): Promise<void> {
    const received = Object.assign(request, { rawBody, body: JSON.parse(rawBody.toString('utf8')) as unknown, readRawBody: async () => {} });
    const data = this.webhookData(workflow, node);
    const additionalData = this.additionalData({ httpRequest: received as never, httpResponse: response as never });
    const context = new WebhookContext(workflow, node, additionalData, 'webhook', data, [], null);
    const result = await this.nodeTypeOf(node).webhook!.call(context);
    if (result.noWebhookResponse) return;
    if (result.workflowData) this.triggered.push(...result.workflowData.flat());
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Workflow was started' }));
  }
}

/** The items `nodeName` output in `run`, or the error n8n recorded for it. */
export function outputOf(result: IRun, nodeName: string): IDataObject[] {
  const task = result.data.resultData.runData[nodeName]?.[0];
  if (!task) throw new Error(`${nodeName} did not run; run error: ${result.data.resultData.error?.message ?? 'none'}`);
  if (task.error) throw Object.assign(new Error(`${nodeName} failed: ${task.error.message}`), { cause: task.error });
  return (task.data?.main[0] ?? []).map((item) => item.json);
}

/**
 * n8n's settings folder (N8N_USER_FOLDER: n8n-core keeps its instance settings there) inside `work`,
 * its encryption key written beforehand so that n8n-core does not generate one and say so; n8n's log quiet.
 */
export async function useN8nHome(work: string): Promise<void> {
  const home = path.join(work, 'n8n-home');
  await mkdir(path.join(home, '.n8n'), { recursive: true });
  await writeFile(path.join(home, '.n8n', 'config'), JSON.stringify({ encryptionKey: 'a test encryption key' }), { mode: 0o600 });
  process.env.N8N_USER_FOLDER = home;
  // n8n logs every node error it records; the tests assert those errors instead of printing them.
  process.env.N8N_LOG_LEVEL = 'silent';
}

/** The n8n-core and n8n-workflow versions under test, for the test names. */
export async function n8nVersions(): Promise<string> {
  const version = async (name: string) => JSON.parse(await readFile(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version as string;
  return `n8n-core ${await version('n8n-core')}, n8n-workflow ${await version('n8n-workflow')}`;
}
