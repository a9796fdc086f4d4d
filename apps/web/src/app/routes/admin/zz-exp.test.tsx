import { Autocomplete, Select } from '@mantine/core';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { it } from 'vitest';
import { renderRoute } from '../../../test/render';

function Thing() {
  const [v, setV] = useState('');
  const [data, setData] = useState<string[]>([]);
  return (
    <>
      <Select label="Sel" data={['a1', 'b2']} />
      <Autocomplete label="Auto" value={v} onChange={(x) => { setV(x); setTimeout(() => setData(['Moscow 1', 'Moscow 2']), 100); }} data={data} filter={({ options }) => options} />
    </>
  );
}

it('select', async () => {
  const { user } = renderRoute(<Thing />, { path: '/x' });
  await user.click(screen.getByRole('textbox', { name: 'Sel' }));
  await screen.findByRole('option', { name: 'a1' });
  console.log('SELECT OK');
  await user.type(screen.getByRole('textbox', { name: 'Auto' }), 'Mo');
  await screen.findByRole('option', { name: 'Moscow 2' });
  console.log('AUTO OK');
});
