// Rendering a hosted client's hooks as its users do, each render with its own SWR cache (the package
// caches by path, so one test's list would otherwise be another's).
import { act, render, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { SWRConfig } from 'swr';

export { act, waitFor };

const freshCache = ({ children }: { children: ReactNode }) => createElement(SWRConfig, { value: { provider: () => new Map(), dedupingInterval: 0 } }, children);

/** Renders a component of the client, with its own SWR cache. */
export function renderComponent(element: ReactNode): ReturnType<typeof render> {
  return render(element, { wrapper: freshCache });
}

/** Renders `useHook`; the caller unmounts. */
export function renderFresh<T>(useHook: () => T): { result: { current: T }; unmount(): void } {
  return renderHook(useHook, { wrapper: freshCache });
}

/** Waits (up to 5 s) until `ready` holds of the hook's current value, then returns it. */
export async function until<T>(result: { current: T }, ready: (value: T) => boolean): Promise<T> {
  await waitFor(() => {
    if (!ready(result.current)) throw new Error(`not yet: ${JSON.stringify(result.current)}`);
  }, { timeout: 5000 });
  return result.current;
}
