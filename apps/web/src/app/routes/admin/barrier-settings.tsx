import { Card, Select, Stack, Text } from '@mantine/core';
import { errorCodeText } from '@propusk/contracts/error-texts';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { SETTING_MESSAGES } from '@propusk/contracts/texts/settings';
import { isDeviceModel } from '@propusk/devices/models';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AppLayout } from '../../../components/layout/app-layout';
import { MissingBarrier } from '../../../components/missing-barrier';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { QueryStatus } from '../../../components/query-status';
import { TextLines } from '../../../components/text-lines';
import { UserText } from '../../../components/user-text';
import {
  adminBarrierQueryKey,
  getAdminBarrier,
} from '../../../features/admin-barriers/api/admin-barriers-api';
import {
  barrierSettingsQueryKey,
  getBarrierSettings,
} from '../../../features/admin-settings/api/settings-api';
import { SettingForm } from '../../../features/admin-settings/components/setting-form';
import { UnverifiedModelBanner } from '../../../features/device-models/components/unverified-model-banner';
import { useDefinedModelSheets } from '../../../features/device-models/use-defined-model-sheets';
import { useFormDraft } from '../../../hooks/use-form-draft';
import { useNavigationState } from '../../../hooks/use-navigation-state';
import { NetworkError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { adminNavigation } from './navigation';

/**
 * /barrier-settings: choose one of the device model's settings, fill its parameters and send it. The screen
 * names the barrier (its address and device phone) so a setting is not sent to the wrong device.
 */
export function BarrierSettingsRoute() {
  const barrierId = useNavigationState().barrier_id ?? null;
  const [selected, setSelected] = useState<string | null>(null);
  // The chosen setting outlives an ended session (issue 41), and its form its values.
  useFormDraft('setting-choice', { selected }, (saved) => {
    if (typeof saved.selected === 'string') setSelected(saved.selected);
  });
  const settings = useQuery({
    queryKey: barrierSettingsQueryKey(barrierId ?? 0),
    queryFn: () => getBarrierSettings(barrierId ?? 0),
    enabled: barrierId !== null,
  });
  const barrier = useQuery({
    queryKey: adminBarrierQueryKey(barrierId ?? 0),
    queryFn: () => getAdminBarrier(barrierId ?? 0),
    enabled: barrierId !== null,
  });
  // His own models' sheets, so that a barrier on a defined model reads its settings as any other.
  useDefinedModelSheets();
  const model = barrier.data && isDeviceModel(barrier.data.device_model) ? barrier.data.device_model : null;
  const entries = Object.entries(settings.data?.settings ?? {});
  const current = selected ? settings.data?.settings[selected] : undefined;
  // Why the server would refuse the chosen setting now (its Russian text, by the code it would answer).
  const unavailable = selected ? settings.data?.unavailable?.[selected] : undefined;
  const unavailableReason = unavailable
    ? (errorCodeText(unavailable) ?? SETTING_MESSAGES.settingSendFailed)
    : null;
  const loadError = settings.error
    ? settings.error instanceof NetworkError
      ? COMMON_MESSAGES.network
      : errorMessage(settings.error, { fallback: SETTING_MESSAGES.settingsLoadFailed })
    : null;

  return (
    <AppLayout
      title="Настройки шлагбаума"
      back={{ to: paths.adminBarriers, label: 'Назад' }}
      navigation={adminNavigation}
    >
      <UnverifiedModelBanner barrierId={barrierId} />
      {barrierId === null ? (
        <MissingBarrier listPath={paths.adminBarriers} />
      ) : isForbidden(settings.error) ? (
        <NoAccess />
      ) : (
        <>
          {barrier.data ? (
            <Card withBorder radius="md" data-testid="settings-barrier">
              <Stack gap={2}>
                <Text fw={600} data-testid="barrier-address">
                  <UserText>{barrier.data.address}</UserText>
                </Text>
                <Text size="sm">Телефон устройства: {barrier.data.device_phone}</Text>
              </Stack>
            </Card>
          ) : null}
          <QueryStatus isPending={settings.isPending} error={loadError} />
          {settings.data ? (
            <Select
              label="Настройка"
              placeholder="Выберите настройку"
              data={entries.map(([id, setting]) => ({ value: id, label: setting.name }))}
              value={selected}
              onChange={setSelected}
              searchable
              nothingFoundMessage={<TextLines text={SETTING_MESSAGES.nothingFound} />}
            />
          ) : null}
          {barrierId !== null && model && selected && current ? (
            <SettingForm
              key={selected}
              barrierId={barrierId}
              model={model}
              settingId={selected}
              setting={current}
              unavailableReason={unavailableReason}
            />
          ) : null}
        </>
      )}
    </AppLayout>
  );
}

export default BarrierSettingsRoute;
