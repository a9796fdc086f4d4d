import { SegmentedControl } from '@mantine/core';
import { useNavigate } from 'react-router';
import { paths } from '../lib/paths';

/** The User/Administrator toggle (spec.md section 2), shown only to admin-capable users. */
export function RoleToggle({ current }: { current: 'user' | 'admin' }) {
  const navigate = useNavigate();
  return (
    <SegmentedControl
      fullWidth
      aria-label="Режим"
      value={current}
      onChange={(value) => navigate(value === 'admin' ? paths.admin : paths.user)}
      data={[
        { value: 'user', label: 'Пользователь' },
        { value: 'admin', label: 'Администратор' },
      ]}
    />
  );
}
