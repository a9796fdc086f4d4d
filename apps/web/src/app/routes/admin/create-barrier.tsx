import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { CreateBarrierForm } from '../../../features/admin-barriers/components/create-barrier-form';
import { definedModelOption } from '../../../features/admin-barriers/device-models';
import { useDefinedModelSheets } from '../../../features/device-models/use-defined-model-sheets';
import { paths } from '../../paths';
import { adminNavigation } from './navigation';

/** spec.md section 9: the redirect after a barrier is created waits 1 second. */
export const REDIRECT_AFTER_CREATE_MS = 1000;

/** /create-barrier: 'Создание шлагбаума'; on 201 the success line shows, then /admin-barriers after 1 s. */
export function CreateBarrierRoute() {
  const navigate = useNavigate();
  const [isCreated, setIsCreated] = useState(false);
  const definedModels = useDefinedModelSheets();

  useEffect(() => {
    if (!isCreated) return;
    const timer = window.setTimeout(() => navigate(paths.adminBarriers), REDIRECT_AFTER_CREATE_MS);
    return () => window.clearTimeout(timer);
  }, [isCreated, navigate]);

  return (
    <AppLayout
      title="Создание шлагбаума"
      back={{ to: paths.adminBarriers, label: 'Назад' }}
      navigation={adminNavigation}
    >
      <CreateBarrierForm
        onCreated={() => setIsCreated(true)}
        definedModels={definedModels.map((model) =>
          definedModelOption({ model: model.model, name: model.name, capacity: model.definition.capacity }),
        )}
      />
    </AppLayout>
  );
}

export default CreateBarrierRoute;
