import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { AppError } from '../../platform/errors';
import type { Principal } from '../../access/principal';
import { accessDenial } from './toolAccess';
import type { PromptDefinition, ResourceDefinition, Worker } from './toolDefinition';

interface CompiledResource {
  definition: ResourceDefinition;
  pattern: RegExp;
  names: string[];
  template: boolean;
}

/**
 * The resources and prompts the workers contribute, shown and served by the same access rules as tools. A resource
 * URI is matched against fixed URIs and level-1 templates (`{name}` stands for one path segment).
 */
export class AgentContent {
  private readonly resources: CompiledResource[];
  private readonly prompts: PromptDefinition[];

  constructor(workers: Worker[]) {
    this.resources = workers.flatMap((worker) => (worker.resources ?? []).map(compile));
    this.prompts = workers.flatMap((worker) => worker.prompts ?? []);
  }

  listResources(caller: Principal) {
    return this.visible(caller).flatMap(({ definition, template }) => {
      const base = { mimeType: definition.mimeType, description: definition.description };
      if (!template)
        return [{ uri: definition.uri, name: definition.name, title: definition.title, ...base }];
      return (definition.list?.() ?? []).map((entry) => ({ ...entry, ...base }));
    });
  }

  listTemplates(caller: Principal) {
    return this.visible(caller)
      .filter((resource) => resource.template)
      .map(({ definition }) => ({
        uriTemplate: definition.uri,
        name: definition.name,
        title: definition.title,
        description: definition.description,
        mimeType: definition.mimeType,
      }));
  }

  async readResource(uri: string, caller: Principal) {
    for (const resource of this.visible(caller)) {
      const match = resource.pattern.exec(uri);
      if (!match) continue;
      const variables = Object.fromEntries(
        resource.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]),
      );
      try {
        const text = await resource.definition.read(variables, caller);
        return { uri, mimeType: resource.definition.mimeType, text };
      } catch (error) {
        if (error instanceof AppError && error.status === 404) {
          throw new ResourceNotFoundError(uri, error.detail ?? 'Resource not found');
        }
        throw error;
      }
    }
    throw new ResourceNotFoundError(uri, `Resource not found: ${uri}`);
  }

  listPrompts(caller: Principal) {
    return this.prompts
      .filter((prompt) => accessDenial(prompt.access, caller) === undefined)
      .map(({ name, title, description, arguments: args }) => ({
        name,
        title,
        description,
        arguments: args,
      }));
  }

  getPrompt(name: string, args: Record<string, string>, caller: Principal) {
    const prompt = this.prompts.find((candidate) => candidate.name === name);
    if (!prompt || accessDenial(prompt.access, caller) !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    }
    const missing = prompt.arguments.filter((arg) => arg.required && !args[arg.name]?.trim());
    if (missing.length > 0) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Missing prompt arguments: ${missing.map((arg) => arg.name).join(', ')}`,
      );
    }
    return {
      description: prompt.description,
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.render(args) } }],
    };
  }

  private visible(caller: Principal): CompiledResource[] {
    return this.resources.filter(
      (resource) => accessDenial(resource.definition.access, caller) === undefined,
    );
  }
}

function compile(definition: ResourceDefinition): CompiledResource {
  const names: string[] = [];
  const source = definition.uri
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const variable = /^\{([a-z_]+)\}$/.exec(part);
      if (!variable) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(variable[1]);
      return '([^/]+)';
    })
    .join('');
  return { definition, pattern: new RegExp(`^${source}$`), names, template: names.length > 0 };
}
