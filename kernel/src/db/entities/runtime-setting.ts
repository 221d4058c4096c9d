import { defineEntity, p } from '@mikro-orm/core';

/** One runtime setting (a "seed" variable after first start); the table is authoritative. */
export const RuntimeSetting = defineEntity({
  name: 'RuntimeSetting',
  tableName: 'runtime_setting',
  properties: {
    key: p.string().primary(),
    value: p.json<unknown>(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    updatedBy: p.string().nullable(),
  },
});

export type RuntimeSettingEntity = InstanceType<typeof RuntimeSetting.class>;
