// Imported first by a client test: the DOM must exist before Testing Library binds `screen` to it.
import { installDom } from './browser.ts';

export const browser = installDom();
