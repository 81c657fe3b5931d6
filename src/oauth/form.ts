// The body of the token and revocation endpoints: application/x-www-form-urlencoded (RFC 6749 §3.2,
// RFC 7009 §2.1). A parameter given twice is refused; any other type of body (JSON included) is read
// as nothing, and the endpoint refuses it as not a form.
import type { FastifyInstance } from 'fastify';
import { invalidRequest } from './errors.ts';

export type Form = Record<string, string>;

/** Makes `scope` read form bodies into a Form, and every other body as undefined. */
export function acceptForms(scope: FastifyInstance): void {
  // The application's own parsers (JSON, text) would hand the handler an object that reads like a form.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
}

/** The request's form, or an OAuthError when it sent none. */
export function formOf(body: unknown): Form {
  if (!body || typeof body !== 'object') throw invalidRequest('Send the parameters as application/x-www-form-urlencoded');
  return body as Form;
}

/** A parameter that must be there and not empty. */
export function required(form: Form, name: string): string {
  const value = form[name];
  if (!value) throw invalidRequest(`${name} is required`);
  return value;
}

/** The form's parameters; one given twice is refused (RFC 6749 §3.2). */
function parseForm(body: string): Form {
  const form: Form = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) {
    if (name in form) throw invalidRequest(`${name} is given more than once`);
    form[name] = value;
  }
  return form;
}
