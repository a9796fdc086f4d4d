import type { ConformanceStepView } from '@propusk/contracts/conformance';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../../test/render';
import { ConformanceStep } from './conformance-step';

const waiting = (overrides: Partial<ConformanceStepView>): ConformanceStepView => ({
  key: 'clock_try_call',
  label: 'Звонок на устройство: открылось? (порядок цифр: год-месяц-день)',
  state: 'sent',
  sent_text: null,
  reply: null,
  verdict: null,
  expects_reply: true,
  learnt: null,
  note: null,
  asks: 'call',
  call_number: '+79161234567',
  captured: [],
  ...overrides,
});

describe('a conformance step that asks the person (issue 42 items 2, 3)', () => {
  it('asks «Открылось?» naming the number to call from, and answers «Нет» as not opened', async () => {
    const onAnswer = vi.fn();
    const { user } = renderRoute(
      <ConformanceStep step={waiting({})} onAnswer={onAnswer} answering={false} answerError={null} />,
      { path: '/x' },
    );
    expect(screen.getByTestId('conformance-ask')).toHaveTextContent(
      'Позвоните на устройство с номера +7 (916) 123-45-67 и дождитесь, откроется ли шлагбаум. Открылось?',
    );
    await user.click(screen.getByRole('button', { name: 'Нет' }));
    await user.click(screen.getByRole('button', { name: 'Да' }));
    expect(onAnswer.mock.calls).toEqual([['not_opened'], ['opened']]);
  });

  it('during the power cut shows what the unit sent and lets the person finish or skip', async () => {
    const onAnswer = vi.fn();
    const step = waiting({
      key: 'power_cut',
      label: 'Отключите питание устройства на минуту',
      asks: 'power',
      call_number: null,
      captured: ['AC OFF! Battery mode'],
    });
    const { user } = renderRoute(
      <ConformanceStep step={step} onAnswer={onAnswer} answering={false} answerError={null} />,
      { path: '/x' },
    );
    expect(screen.getByText('AC OFF! Battery mode')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Пропустить' }));
    await user.click(screen.getByRole('button', { name: 'Питание включено' }));
    expect(onAnswer.mock.calls).toEqual([['skip'], ['power_done']]);
  });

  it('a call that opened in the other order is shown as a difference, the order as learnt', () => {
    renderRoute(
      <ConformanceStep
        step={waiting({
          state: 'done',
          asks: null,
          verdict: 'different',
          learnt: 'Порядок цифр времени: день-месяц-год',
        })}
        onAnswer={() => {}}
        answering={false}
        answerError={null}
      />,
      { path: '/x' },
    );
    expect(screen.getByTestId('conformance-step-difference')).toHaveTextContent('другой текст');
    expect(screen.getByTestId('conformance-step-learnt')).toHaveTextContent(
      'Порядок цифр времени: день-месяц-год',
    );
    expect(screen.queryByTestId('conformance-ask')).toBeNull();
  });
});
