import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { AppConfig } from '../../config/app-config';

export const WORK_UNITS = 'workUnits';

/** How many units of work a request carries: what it costs of the key's (and organisation's) rate limit. */
export type WorkUnitsOf = (request: Request, config: AppConfig) => number;

/**
 * A route whose requests may carry several units of work (an MCP batch of tool calls): the rate limit
 * counts each (RateLimitGuard), and refuses the request whole when they do not all fit. Other routes cost 1.
 */
export const WorkUnits = (units: WorkUnitsOf) => SetMetadata(WORK_UNITS, units);
