/** The client log push (DESIGN.md section 7; spec.md section 7 "Other": level, app, page, message). */
import { z } from 'zod';
import './zod-messages.ts';

export const CLIENT_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type ClientLogLevel = (typeof CLIENT_LOG_LEVELS)[number];

export const CLIENT_LOG_MESSAGE_MAX_LENGTH = 2000;

/** The clients that push log lines: this project's web app (apps/web sends `web`). */
export const CLIENT_LOG_APPS = ['web'] as const;
export type ClientLogApp = (typeof CLIENT_LOG_APPS)[number];

export const clientLogBodySchema = z.object({
  level: z.enum(CLIENT_LOG_LEVELS, { error: `Level must be one of: ${CLIENT_LOG_LEVELS.join(', ')}.` }),
  // One of the known clients, never a free text in the log (issue 40 item 7); else zod's `Invalid choice.`
  app: z.enum(CLIENT_LOG_APPS),
  page: z
    .string({ error: 'Page must be a string.' })
    .trim()
    .min(1, { error: 'Page must not be empty.' })
    .max(200),
  message: z
    .string({ error: 'Message must be a string.' })
    .min(1, { error: 'Message must not be empty.' })
    .max(CLIENT_LOG_MESSAGE_MAX_LENGTH, {
      error: `Message must be at most ${CLIENT_LOG_MESSAGE_MAX_LENGTH} characters.`,
    }),
});
export type ClientLogBody = z.infer<typeof clientLogBodySchema>;
