// Header button shown when logged out: starts the Steam sign-in.
import { useTranslation } from 'react-i18next';
import { LogIn } from 'lucide-react';
import { Button } from '../../../components/ui/Button.js';
import { useLogin } from '../hooks/useLogin.js';

export function LoginButton() {
  const { t } = useTranslation();
  const login = useLogin();
  return (
    <Button data-testid="login-button" onClick={() => login.mutate()} disabled={login.isPending}>
      <LogIn className="size-4" aria-hidden />
      {t('auth.login')}
    </Button>
  );
}
