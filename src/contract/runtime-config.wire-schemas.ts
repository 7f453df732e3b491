import { Object as ObjectType, String as StringType, type Static } from 'typebox'
import type { RuntimeConfig } from '@/application/runtime-config'
import type { Assert, SameType } from '@/contract/news.wire-schemas'

/**
 * What `GET /api/config` answers, once: the server's route schema and the browser's
 * RuntimeConfigClient both use it.
 */
export const RuntimeConfigSchema = ObjectType({
  emailjs: ObjectType({
    origin: StringType({
      description: 'The EmailJS API origin; empty means this server (its built-in outbox).',
    }),
    publicKey: StringType(),
    serviceId: StringType(),
    templateId: StringType(),
  }),
})

// Readonly at both depths, as the application's type is.
type DeepReadonlyConfig = Readonly<{
  emailjs: Readonly<Static<typeof RuntimeConfigSchema>['emailjs']>
}>

export type _WireConfigMatchesTheApplication = Assert<SameType<DeepReadonlyConfig, RuntimeConfig>>
