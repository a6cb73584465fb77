import { z } from '@hono/zod-openapi';
import { deferred } from '../../schemas/deferred.js';
import { CalendarDate, idSchema, LocalTime, Metadata, Timestamp } from '../../schemas/common.js';
import { MetadataCreate, MetadataPatch } from '../../schemas/input.js';

export const JOB_TYPES = ['hhw_event', 'ci_pickup', 'lab_pack'] as const;
export const JOB_STATUSES = ['draft', 'scheduled', 'in_progress', 'closed', 'billed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JobWindow = deferred(() => z.strictObject({ start: LocalTime(), end: LocalTime() }).openapi('JobWindow'));

export const CrewMember = deferred(() =>
  z.strictObject({ name: z.string(), role: z.string(), accepted: z.boolean() }).openapi('CrewMember'),
);

export const Job = deferred(() =>
  z
    .strictObject({
      id: idSchema('job'),
      object: z.literal('job'),
      type: z.enum(JOB_TYPES),
      client: idSchema('client'),
      site: idSchema('site'),
      status: z.enum(JOB_STATUSES),
      // A draft job may have neither date nor window: it is scheduled once it has both.
      scheduled_for: CalendarDate().nullable(),
      window: JobWindow().nullable(),
      crew: z.array(CrewMember()),
      container_count: z.int().nonnegative(),
      invoice: idSchema('invoice').nullable(),
      metadata: Metadata(),
      created_at: Timestamp(),
      updated_at: Timestamp(),
    })
    .openapi('Job'),
);
export type Job = z.infer<ReturnType<typeof Job>>;

/** A window as sent: HH:MM times with start before end (docs/behaviour.md, "Creates"). */
export const JobWindowInput = deferred(() =>
  z
    .strictObject({ start: LocalTime(), end: LocalTime() })
    .superRefine((window, ctx) => {
      if (window.start >= window.end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be later than window.start' });
    })
    .openapi('JobWindowInput'),
);

export const CreateJobBody = deferred(() =>
  z
    .strictObject({
      type: z.enum(JOB_TYPES),
      client: idSchema('client'),
      site: idSchema('site'),
      scheduled_for: CalendarDate().optional(),
      window: JobWindowInput().optional(),
      metadata: MetadataCreate().optional(),
    })
    .openapi('CreateJobBody'),
);

export const UpdateJobBody = deferred(() =>
  z
    .strictObject({
      scheduled_for: CalendarDate().optional(),
      window: JobWindowInput().optional(),
      metadata: MetadataPatch().optional(),
    })
    .openapi('UpdateJobBody'),
);

export const CancelJobBody = deferred(() =>
  z
    .strictObject({
      // Shown to the crew and in the job's history; the job record has no field for it.
      reason: z.string().optional(),
    })
    .openapi('CancelJobBody'),
);
