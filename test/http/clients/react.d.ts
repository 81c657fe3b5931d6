// React ships no types and @types/react is not installed: the tests use createElement and ReactNode only.
declare module 'react' {
  export type ReactNode = unknown;
  export function createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): ReactNode;
}
